/**
 * The BUILT server as a process, for the suites that need real processes (crash, shutdown, backup, several
 * instances): compiled into .test-build-<key>/ (so dist/, which `npm start` serves, is never disturbed), started
 * on a free port with the given environment, stopped with SIGTERM or killed with SIGKILL.
 */
const { execFileSync, spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
} = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');

/** A fingerprint of what the build reads: every file under src/, the tsconfig files and package.json. */
function sourceKey() {
  const hash = createHash('sha256');
  const visit = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else hash.update(p).update(readFileSync(p));
    }
  };
  visit(join(root, 'src'));
  for (const f of ['tsconfig.json', 'tsconfig.build.json', 'package.json']) hash.update(readFileSync(join(root, f)));
  return hash.digest('hex').slice(0, 12);
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Compiles src/ into .test-build-<key>/ (one level below the root, as dist/ is) once per version of the sources,
 * however many suites ask at once: one builds under a lock (a directory), the others wait for it and share the
 * result, so no suite's server is deleted under it. Builds of older sources are removed.
 */
function buildServer() {
  const dir = join(root, `.test-build-${sourceKey()}`);
  const main = join(dir, 'main.js');
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    if (existsSync(main)) return main;
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    try {
      // The lock of a build that was killed.
      if (Date.now() - statSync(lock).mtimeMs > 5 * 60_000) rmSync(lock, { recursive: true, force: true });
    } catch {
      // released meanwhile
    }
    if (Date.now() > deadline) throw new Error('timed out waiting for another build of the server');
    sleep(250);
  }
  try {
    if (existsSync(main)) return main;
    const partial = `${dir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', partial],
      { cwd: root, stdio: 'inherit' },
    );
    renameSync(partial, dir);
    for (const e of readdirSync(root))
      if (/^\.test-build(-[0-9a-f]{12})?$/.test(e) && join(root, e) !== dir)
        rmSync(join(root, e), { recursive: true, force: true });
    return main;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
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

/**
 * Whether `pid` holds the socket listening on `port` (Linux: /proc's TCP tables and the process's descriptors).
 * Another process may take a port between freePort() and the child's listen; its health answer must not count as
 * the child's. Where /proc is missing the answer alone counts.
 */
function listensOn(pid, port) {
  const inodes = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && parseInt(f[1].split(':')[1], 16) === port) inodes.add(f[9]);
    }
  }
  let fds;
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return !existsSync('/proc/net/tcp');
  }
  return fds.some((fd) => {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      return m !== null && inodes.has(m[1]);
    } catch {
      return false;
    }
  });
}

async function waitForHealth(base, port, child, output, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited with code ${child.exitCode ?? child.signalCode}\n${output()}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok && listensOn(child.pid, port)) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not become healthy within ${ms} ms\n${output()}`);
}

/**
 * Starts `node <mainJs>` with this environment on a free port, or on `env.PORT` (a restart on the port a proxy
 * knows), and waits until it is healthy. A free port another process takes before the child listens is retried
 * on a new one (the output keeps every attempt). Returns { child, base, port, output() }.
 */
async function startServer(mainJs, env) {
  let text = '';
  const output = () => text;
  for (let attempt = 1; ; attempt++) {
    const port = env.PORT ? Number(env.PORT) : await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [mainJs], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: '', PUBLIC_URL: base, ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => (text = (text + d).slice(-20_000)));
    child.stderr.on('data', (d) => (text = (text + d).slice(-20_000)));
    try {
      await waitForHealth(base, port, child, output);
      return { child, base, port, output };
    } catch (e) {
      child.kill('SIGKILL');
      if (env.PORT || attempt === 3 || !/EADDRINUSE/.test(text)) throw e;
    }
  }
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

module.exports = { buildServer, startServer, stopServer };
