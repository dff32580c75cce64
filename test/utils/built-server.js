/**
 * The BUILT server as a process, for the suites that need real processes (crash, several instances):
 * compiled once into .test-build/ (so dist/, which `npm start` serves, is never disturbed), started on a
 * free port with the given environment, stopped with SIGTERM or killed with SIGKILL.
 */
const { execFileSync, spawn } = require('node:child_process');
const { rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const BUILD_DIR = join(root, '.test-build');
const MAIN_JS = join(BUILD_DIR, 'main.js');

/** Compiles src/ into a fresh .test-build/ (about 10 s; emptied first, so no file of a removed source lingers). */
function buildServer() {
  rmSync(BUILD_DIR, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', BUILD_DIR],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  return MAIN_JS;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base, child, output, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}\n${output()}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not become healthy within ${ms} ms\n${output()}`);
}

/**
 * Starts `node <mainJs>` with this environment (PORT chosen here) and waits until it is healthy.
 * Returns { child, base, port, output() }.
 */
async function startServer(mainJs, env) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [mainJs], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: '', PUBLIC_URL: base, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (d) => (text = (text + d).slice(-20_000)));
  child.stderr.on('data', (d) => (text = (text + d).slice(-20_000)));
  const output = () => text;
  try {
    await waitForHealth(base, child, output);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return { child, base, port, output };
}

/** SIGKILL (a crash) or SIGTERM (a clean stop); resolves when the process is gone. */
function stopServer(server, signal = 'SIGTERM') {
  const { child } = server;
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

module.exports = { buildServer, startServer, stopServer, MAIN_JS };
