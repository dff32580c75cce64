#!/usr/bin/env node
// `npm run start:dev`: the API in watch mode (tsc recompiles src/ into dist/, node restarts on every change)
// and Vite's dev server for the client (hot reload), whose proxy sends API calls to the API's PORT.
// Open http://localhost:5173 (VITE_PORT changes it). Ctrl-C stops all three.
const { spawn, spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const env = { ...process.env, APP_ENV: process.env.APP_ENV ?? 'develop' };

// A first full compile, so the API starts from a complete dist/.
const first = spawnSync(bin('tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (first.status !== 0) console.error('[dev] the server does not compile yet; watching for fixes');

const children = [
  spawn(bin('tsc'), ['-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'], {
    cwd: root,
    stdio: 'inherit',
    env,
  }),
  spawn(process.execPath, ['--watch-path=dist', '--watch-preserve-output', 'dist/main.js'], {
    cwd: root,
    stdio: 'inherit',
    env,
  }),
  spawn(bin('vite'), ['--config', 'client/vite.config.mts'], { cwd: root, stdio: 'inherit', env }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
for (const c of children) c.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
