import 'reflect-metadata';
import { COMMANDS, runCommand } from './platform/backup/cli';

/**
 * `node dist/main.js` serves; `node dist/main.js backup|restore <file>` runs the operator's command (in the image as
 * outside it) without loading the application.
 */
async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command !== undefined && COMMANDS.includes(command)) {
    process.exitCode = await runCommand(command, args);
    return;
  }
  // Loaded only to serve: the commands start in a fraction of the time without Nest and every module.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { serve } = require('./app/serve') as typeof import('./app/serve');
  await serve();
}

void main();
