import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { BackupError, createBackup, knownMigrations, restoreBackup } from './backup';

const USAGE = `Usage (DATA_DIR as the server's):
  node dist/main.js backup <file.tar.gz>    a consistent snapshot of the running server's database and keys
  node dist/main.js restore <file.tar.gz>   into an empty DATA_DIR, then start the server
(npm run backup -- <file> and npm run restore -- <file> do the same; docs/operating.md)`;

const KEY_VARIABLES = ['JWT_SECRET', 'ENCRYPTION_KEY'];

function dataDirOf(env: NodeJS.ProcessEnv): string {
  return resolve(env.DATA_DIR?.trim() || './data');
}

/** `backup` and `restore` from the command line. Returns the exit code; writes only to stdout and stderr. */
export async function runCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [file, ...rest] = args;
  if (!file || rest.length) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (env.DATABASE_URL?.trim()) {
    process.stderr.write(
      'DATABASE_URL is set: back up and restore PostgreSQL with pg_dump and pg_restore, and keep JWT_SECRET and ENCRYPTION_KEY with the dump (docs/operating.md).\n',
    );
    return 2;
  }
  const dataDir = dataDirOf(env);
  try {
    if (command === 'backup') {
      const keysFromEnvironment = KEY_VARIABLES.filter((k) => env[k]?.trim());
      const m = await createBackup({ dataDir, file: resolve(file), keysFromEnvironment });
      process.stdout.write(
        `Backup written to ${resolve(file)}: schema ${m.schemaVersion}, ${m.files.map((f) => `${f.name} (${f.bytes} bytes)`).join(', ')}.\n` +
          'It holds the keys in clear, like DATA_DIR itself: keep it as safe as DATA_DIR, or encrypt it (docs/operating.md).\n' +
          (keysFromEnvironment.length
            ? `${keysFromEnvironment.join(' and ')} come from the environment and are NOT in the archive: keep them with it.\n`
            : ''),
      );
      return 0;
    }
    if (command === 'restore') {
      mkdirSync(dataDir, { recursive: true });
      const m = await restoreBackup({ file: resolve(file), dataDir, knownMigrations: knownMigrations() });
      process.stdout.write(
        `Restored the backup of ${m.createdAt} (schema ${m.schemaVersion}) into ${dataDir}; start the server on it.\n` +
          (m.keysFromEnvironment.length
            ? `The backed-up server had ${m.keysFromEnvironment.join(' and ')} from its environment: give it the same.\n`
            : ''),
      );
      return 0;
    }
  } catch (e) {
    process.stderr.write(`${command} failed: ${(e as Error).message}\n`);
    return e instanceof BackupError ? 1 : 3;
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

export const COMMANDS = ['backup', 'restore'];
