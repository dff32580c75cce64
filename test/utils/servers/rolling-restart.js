/**
 * A rolling restart of two built instances behind nginx, under load (used by test/multi/rolling-restart.spec.ts
 * and bench/rolling-restart.js). nginx runs the shipped deploy/nginx.conf with only its addresses changed. Each
 * client signs in once, then reads (GET /api/users/current, retried on a failed connection or a 502/503/504 as
 * an idempotent call may be) and writes (POST /api/user-groups, never retried); sockets reconnect the way the
 * product's client does. Meanwhile each instance in turn gets SIGTERM and is started again on its port.
 */
const { spawn } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { io } = require('socket.io-client');
const { startServer, stopServer } = require('./built-server.js');

const root = join(__dirname, '..', '..', '..');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Debian's nginx, wherever PATH does not reach (/usr/sbin for a non-root user). */
function nginxBinary() {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(candidate)) return candidate;
  return 'nginx';
}

/** nginx in the foreground on a free port, with deploy/nginx.conf's server block pointed at `upstreams`. */
async function startNginx(upstreams) {
  const dir = mkdtempSync(join(tmpdir(), 'tax-portal-nginx-'));
  const port = await freePort();
  const site = readFileSync(join(root, 'deploy', 'nginx.conf'), 'utf8')
    .replace('server portal-a:3000', `server 127.0.0.1:${upstreams[0]}`)
    .replace('server portal-b:3000', `server 127.0.0.1:${upstreams[1]}`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`);
  if (!site.includes(`127.0.0.1:${upstreams[1]}`) || !site.includes(`listen 127.0.0.1:${port}`))
    throw new Error('deploy/nginx.conf no longer has the upstreams and listen directive this harness rewrites');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${join(dir, kind)};`)
    .join('\n');
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;\nworker_processes 1;\npid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')} warn;\n` +
      `events { worker_connections 4096; }\nhttp {\naccess_log off;\n${temp}\n${site}\n}\n`,
  );
  const child = spawn(nginxBinary(), ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errors}`);
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return {
    base,
    log: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''),
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const RETRYABLE = new Set([502, 503, 504]);

/** A read as the product's client would retry it: a failed connection or a gateway error, up to 5 tries. */
async function read(base, token, stats) {
  for (let attempt = 1; ; attempt++) {
    let status;
    try {
      const res = await fetch(`${base}/api/users/current`, { headers: { authorization: `Bearer ${token}` } });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = 'network';
    }
    if (status === 200) {
      stats.reads++;
      if (attempt > 1) stats.readRetries++;
      return;
    }
    if ((status !== 'network' && !RETRYABLE.has(status)) || attempt === 5) {
      stats.readFailures.push(String(status));
      return;
    }
    await sleep(200 * attempt);
  }
}

/** A write, never retried: acknowledged (201) or not, and which. */
async function write(base, token, name, stats) {
  let status;
  try {
    const res = await fetch(`${base}/api/user-groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    status = res.status;
    await res.arrayBuffer();
  } catch {
    status = 'network';
  }
  if (status === 201) stats.acknowledged.push(name);
  else stats.writeFailures.push(String(status));
}

/**
 * A socket as client/src/lib/socket.ts keeps it: socket.io reconnects by itself after a lost transport; a
 * disconnect by the server (a draining instance lets its sockets go) is followed by a new connection.
 */
function keepSocket(base, token, gaps) {
  const socket = io(base, {
    path: '/socket.io',
    transports: ['websocket'],
    query: { token },
    reconnectionDelay: 1000,
    reconnectionDelayMax: 10_000,
  });
  let lostAt = null;
  let tries = 0;
  const connected = new Promise((resolve) => socket.once('connect', resolve));
  socket.on('connect', () => {
    tries = 0;
    if (lostAt !== null) gaps.push(performance.now() - lostAt);
    lostAt = null;
  });
  socket.on('disconnect', (reason) => {
    lostAt ??= performance.now();
    if (reason === 'io server disconnect' && ++tries <= 3) socket.connect();
  });
  return { socket, connected, isLost: () => lostAt !== null, lostSince: () => lostAt };
}

/**
 * Runs the scenario. `users` are accounts that may create user groups, all with `password`. Returns the figures:
 * reads and their retries, writes acknowledged (to look for afterwards) and refused, socket gaps, restart times.
 */
async function rollingRestart({
  mainJs,
  env,
  users,
  password,
  sockets = 20,
  steadyMs = 3000,
  restart = true,
  log = () => {},
}) {
  const ports = [await freePort(), await freePort()];
  const instances = [];
  const started = (i) => startServer(mainJs, { ...env(i), PORT: String(ports[i]) });
  instances[0] = await started(0);
  instances[1] = await started(1);
  const nginx = await startNginx(ports);
  const stats = {
    reads: 0,
    readRetries: 0,
    readFailures: [],
    acknowledged: [],
    writeFailures: [],
    exits: [],
    restartMs: [],
  };
  const gaps = [];
  const kept = [];
  let running = true;
  try {
    const tokens = [];
    for (let i = 0; i < users.length; i += 10) {
      const batch = await Promise.all(
        users.slice(i, i + 10).map(async (username) => {
          const res = await fetch(`${nginx.base}/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password, acceptToS: true }),
          });
          const body = await res.json();
          if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status} ${JSON.stringify(body)}`);
          return body.accessToken;
        }),
      );
      tokens.push(...batch);
    }
    for (const token of tokens.slice(0, sockets)) kept.push(keepSocket(nginx.base, token, gaps));
    await Promise.all(kept.map((k) => k.connected));
    const clients = tokens.map(async (token, c) => {
      for (let n = 0; running; n++) {
        if (n % 4 === 3) await write(nginx.base, token, `roll-${c}-${n}`, stats);
        else await read(nginx.base, token, stats);
        await sleep(50);
      }
    });
    await sleep(steadyMs);
    for (const i of [0, 1]) {
      // The baseline: the same clients for about as long, with no restart.
      if (!restart) {
        await sleep(steadyMs + 3000);
        continue;
      }
      const t0 = performance.now();
      const exit = new Promise((resolve) =>
        instances[i].child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      await stopServer(instances[i], 'SIGTERM');
      stats.exits.push(await exit);
      log(`instance ${i === 0 ? 'A' : 'B'} stopped after ${Math.round(performance.now() - t0)} ms`);
      instances[i] = await started(i);
      stats.restartMs.push(Math.round(performance.now() - t0));
      log(`instance ${i === 0 ? 'A' : 'B'} serving again after ${stats.restartMs[i]} ms`);
      await sleep(steadyMs);
    }
    running = false;
    await Promise.all(clients);
    // Every socket is connected again (or says how long it has been trying).
    const deadline = performance.now() + 15_000;
    while (kept.some((k) => k.isLost()) && performance.now() < deadline) await sleep(100);
    const stillLost = kept.filter((k) => k.isLost()).map((k) => performance.now() - k.lostSince());
    return {
      ...stats,
      socketGapsMs: gaps.map(Math.round).sort((a, b) => a - b),
      socketsStillLost: stillLost.length,
      nginxErrors: nginx.log(),
    };
  } finally {
    running = false;
    for (const k of kept) k.socket.disconnect();
    await nginx.stop();
    await Promise.all(instances.map((s) => s && stopServer(s)));
  }
}

module.exports = { rollingRestart, startNginx };
