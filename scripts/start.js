#!/usr/bin/env node
// `npm start`: builds what is missing or out of date (server, client), then serves everything from one process.
// `npm run backup -- <file>` and `npm run restore -- <file>` pass their command to dist/main.js the same way.
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { restartArgs } = require('./lib/server-node-options');

const root = join(__dirname, '..');

/** Newest modification time of the files below these paths. */
function newest(paths) {
  let t = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) for (const f of readdirSync(p)) walk(join(p, f));
    else t = Math.max(t, s.mtimeMs);
  };
  paths.forEach((p) => walk(join(root, p)));
  return t;
}

function build(output, sources, script) {
  const out = join(root, output);
  if (existsSync(out) && statSync(out).mtimeMs >= newest(sources)) return;
  console.log(`Building (${script})...`);
  execSync(`npm run ${script}`, { cwd: root, stdio: 'inherit' });
}

build('dist/main.js', ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'], 'build:server');
// `npm run backup|restore -- <file>` (dist/main.js's commands) need the server only.
const command = ['backup', 'restore'].includes(process.argv[2]);
if (!command)
  build(
    'client/dist/index.html',
    ['client/src', 'client/index.html', 'client/public', 'client/vite.config.mts', 'src/shared'],
    'build:client',
  );
// The server's node options this node takes and `npm start` could not name (scripts/lib/server-node-options.js): the
// process becomes the server with them; otherwise it loads the server itself.
const main = join(root, 'dist', 'main.js');
const restart = restartArgs(main);
if (restart) process.execve(process.execPath, restart, process.env);
else require(main);
