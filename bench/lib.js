/**
 * Shared pieces of the benchmarks: the built server on a temporary DATA_DIR, seeding straight into its
 * SQLite file with the server's own password hashing, a keep-alive load generator, and bare servers that
 * answer the same bytes (the anchor every ratio is measured against, in the same run).
 */
const { spawn } = require('node:child_process');
const { existsSync, mkdtempSync, openSync, rmSync, readFileSync } = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { serverNodeArgs } = require('../scripts/lib/server-node-options');

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A server as it is in service: its OpenID provider has answered a relying party (the discovery document) before
 * anything is measured, so every figure is read with the provider's AsyncLocalStorage in use
 * (docs/decisions/async-context.md).
 */
async function asInService(base) {
  const discovery = await fetch(`${base}/.well-known/openid-configuration`);
  if (!discovery.ok) throw new Error(`the discovery document answered ${discovery.status}`);
  await discovery.arrayBuffer();
}

/** The built server (dist/main.js) on a fresh DATA_DIR and a free port; `stop()` ends it and removes the data. */
async function startServer(extraEnv = {}, { nodeArgs = [] } = {}) {
  if (!existsSync(join(DIST, 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first');
  const dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  // BENCH_NODE_ARGS='--perf-basic-prof': more options for the server's node (e.g. for `perf record -t <pid>`);
  // BENCH_SERVER_STDOUT=<file>: its standard output there (e.g. with '--trace-opt --trace-deopt').
  const more = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const stdout = process.env.BENCH_SERVER_STDOUT ? openSync(process.env.BENCH_SERVER_STDOUT, 'w') : 'ignore';
  const args = [...profile, ...serverNodeArgs(), ...more, ...nodeArgs, join(DIST, 'main.js')];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      // The default LOG_LEVEL, as in service: a line for every request (written to /dev/null).
      LOG_LEVEL: 'info',
      BOOTSTRAP_SUPPORT_EMAIL: 'support@bench.test',
      BOOTSTRAP_SUPPORT_PASSWORD: 'Bench-Support-1',
      SERVICE_API_KEY: 'bench-service-api-key-0123456789',
      // The bench drives thousands of calls a second from one address and a handful of accounts.
      RATE_LIMIT_SCALE: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error('the server did not become healthy within 60 s');
    await sleep(150);
  }
  await asInService(base);
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    }
    if (process.env.BENCH_KEEP) console.log(`  data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  };
  const rss = () => Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024;
  // The server's CPU time so far (user + system, ms): CPU per call is steadier than calls per second when
  // other work shares the machine.
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  return {
    base,
    port,
    dataDir,
    child,
    stop,
    rss,
    cpuMs,
    apiKey: 'bench-service-api-key-0123456789',
    jwtSecret: () => readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim(),
  };
}

/** A promise-returning wrapper of the server's SQLite file. */
function sqlite(file) {
  const { Database } = require('sqlite3');
  const db = new Database(file);
  db.configure('busyTimeout', 10_000);
  const run = (sql, params = []) =>
    new Promise((resolve, reject) =>
      db.run(sql, params, function done(err) {
        return err ? reject(err) : resolve(this.lastID);
      }),
    );
  const all = (sql, params = []) =>
    new Promise((resolve, reject) => db.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))));
  const close = () => new Promise((resolve) => db.close(() => resolve()));
  return { run, all, close };
}

/** A password hash made exactly as the server makes them (its own PasswordService and argon2 parameters). */
async function serverHash(password) {
  const { PasswordService } = require(join(DIST, 'identity', 'credentials', 'password.service.js'));
  return new PasswordService().hash(password);
}

const sqlNow = () => new Date().toISOString().replace('T', ' ').replace('Z', '');

/** An organisation with large limits (in SQLite or, through user-list.js's target, PostgreSQL); returns its id. */
async function seedOrganisation(db, code, users) {
  return db.run(
    `INSERT INTO "organisations" ("code", "name", "allowedUsersNumber", "maxConcurrentUsers", "maxPortfolios", "applications") VALUES (?, ?, ?, ?, 10, '["TAX_MANAGER"]')`,
    [code, `${code} organisation`, users + 10, users + 10],
  );
}

async function login(base, email, password) {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password, acceptToS: true }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  return { accessToken: (await res.json()).accessToken, cookie };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Closed-loop load: `connections` keep-alive connections, each sending its next request as soon as the
 * previous answer is read, for `seconds`. `next(i)` gives connection i's request ({path, method, headers,
 * body}); `after(i, res, body)` may check the answer. Returns requests per second and latency percentiles.
 */
async function load(base, { connections = 32, seconds = 4, warmupSeconds = 1, next, after, keepTimes = false, cpuMs }) {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const one = (i) =>
    new Promise((resolve, reject) => {
      const r = next(i);
      const req = http.request(
        { host: hostname, port, agent, method: r.method ?? 'GET', path: r.path, headers: r.headers ?? {} },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(r.body);
    });
  let stopAt = 0;
  let measuring = false;
  const times = [];
  let errors = 0;
  let firstError;
  const loop = async (i) => {
    while (performance.now() < stopAt) {
      const t = performance.now();
      const { res, body } = await one(i);
      const ms = performance.now() - t;
      let ok = res.statusCode < 400;
      if (ok && after) ok = after(i, res, body) !== false;
      if (!ok) {
        errors++;
        firstError ??= `${res.statusCode} ${body.toString().slice(0, 200)}`;
      }
      if (measuring) times.push(ms);
    }
  };
  if (warmupSeconds > 0) {
    stopAt = performance.now() + warmupSeconds * 1000;
    await Promise.all(Array.from({ length: connections }, (_, i) => loop(i)));
  }
  measuring = true;
  const cpuStart = cpuMs?.();
  const started = performance.now();
  stopAt = started + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, (_, i) => loop(i)));
  const elapsed = (performance.now() - started) / 1000;
  // `cpuMs` (the server's CPU time, e.g. startServer's): the server's CPU per answered request.
  const cpuPerCall = cpuMs ? (cpuMs() - cpuStart) / Math.max(1, times.length) : undefined;
  agent.destroy();
  times.sort((a, b) => a - b);
  return {
    rps: times.length / elapsed,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    n: times.length,
    errors,
    firstError,
    seconds: elapsed,
    cpuPerCall,
    times: keepTimes ? times : undefined,
  };
}

/** A bare node:http server answering every request with these bytes and headers. */
async function bareHttp(body, headers = { 'content-type': 'application/json; charset=utf-8' }) {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { ...headers, 'content-length': body.length });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** A bare Express app answering every GET with these bytes (the anchor the first figures used). */
async function bareExpress(body, contentType = 'application/json; charset=utf-8') {
  const express = require('express');
  const app = express();
  app.get('/{*any}', (req, res) => res.type(contentType).send(body));
  const server = await new Promise((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  return { base: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

module.exports = {
  ROOT,
  DIST,
  sleep,
  freePort,
  startServer,
  serverNodeArgs,
  asInService,
  sqlite,
  serverHash,
  sqlNow,
  seedOrganisation,
  login,
  percentile,
  load,
  bareHttp,
  bareExpress,
  fmt,
};

/** Records one row of the README's benchmark table (collected by run-all.js) and prints it. */
function report(row, value) {
  console.log(`  => ${row}: ${value}`);
  const file = process.env.BENCH_RESULTS;
  // The script that measured the row (run-all.js files each row under its own script's entries).
  const script = require('node:path').basename(process.argv[1] ?? '');
  if (file) require('node:fs').appendFileSync(file, `${JSON.stringify({ row, value, script })}\n`);
}
module.exports.report = report;

/** Load options for refreshes: connection i is signed-in client i, each sending the cookie its last refresh set. */
function refreshLoad(clients) {
  return {
    connections: clients.length,
    next: (i) => ({ method: 'POST', path: '/refresh', headers: { cookie: clients[i].cookie } }),
    after: (i, res) => {
      const next = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
      if (next) clients[i].cookie = next;
    },
  };
}
module.exports.refreshLoad = refreshLoad;

/** An access token as the server signs them (HS256 with the session id), for seeded sessions. */
function signAccess(secret, userId, sessionId) {
  const { createHmac } = require('node:crypto');
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: userId, sid: sessionId, typ: 'access', iat: now, exp: now + 900 })}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}
module.exports.signAccess = signAccess;

/**
 * One client as the browser's socket.io-client is on the wire (engine.io 4 over a websocket: open,
 * namespace connect, pings answered), without socket.io-client's own work per message, so that thousands
 * of them in one process measure the server's fan-out rather than the load generator. `onEvent(text)` gets
 * every event frame ('42[...]'). Resolves with { close } once connected.
 */
function connectSocket(base, token, onEvent) {
  const WebSocket = require('ws');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(
      `${base.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket&token=${encodeURIComponent(token)}`,
      { perMessageDeflate: false },
    );
    const socket = { close: () => ws.terminate() };
    const timer = setTimeout(() => reject(new Error('connect timeout')), 20_000);
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === '2') ws.send('3');
      else if (text.startsWith('0')) ws.send('40');
      else if (text.startsWith('40')) {
        clearTimeout(timer);
        resolve(socket);
      } else if (text.startsWith('44')) {
        clearTimeout(timer);
        reject(new Error(text.slice(2)));
      } else if (text.startsWith('42')) onEvent(text);
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
module.exports.connectSocket = connectSocket;

/**
 * The product and its bare anchor measured in alternating slices (product, bare, product, …), so that both
 * see the same moments of a machine whose load moves from second to second. Returns both runs and the ratio.
 */
async function compare(productBase, productOpts, bareBase, bareOpts, { rounds = 5, slice = 1 } = {}) {
  const sum = (runs) => {
    const times = runs.flatMap((r) => r.times);
    times.sort((a, b) => a - b);
    const seconds = runs.reduce((s, r) => s + r.seconds, 0);
    return {
      rps: times.length / seconds,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      errors: runs.reduce((s, r) => s + r.errors, 0),
      firstError: runs.find((r) => r.firstError)?.firstError,
    };
  };
  const product = [];
  const bare = [];
  await load(productBase, { ...productOpts, seconds: 0.5, warmupSeconds: 0 });
  await load(bareBase, { ...bareOpts, seconds: 0.5, warmupSeconds: 0 });
  for (let i = 0; i < rounds; i++) {
    product.push(await load(productBase, { ...productOpts, seconds: slice, warmupSeconds: 0, keepTimes: true }));
    bare.push(await load(bareBase, { ...bareOpts, seconds: slice, warmupSeconds: 0, keepTimes: true }));
  }
  const p = sum(product);
  const b = sum(bare);
  return { product: p, bare: b, ratio: p.rps / b.rps };
}
module.exports.compare = compare;
