#!/usr/bin/env node
/**
 * Notifications benchmark (issue 6): starts the built server (dist/) on a temporary DATA_DIR and a free
 * port on 127.0.0.1, seeds one organisation with N users and open sessions straight into SQLite, signs
 * their access tokens with the generated JWT secret, connects N sockets, publishes ONE organisation
 * notification through the service API and prints the time until the 50th percentile, 99th percentile
 * and last delivery, and the server's resident memory per connection (RSS of the server process, read
 * from /proc, before and after connecting). Stops by itself (hard limit 180 s) and cleans up.
 *
 *   node bench/notifications.js            # 10,000 sockets (needs `ulimit -n` above 10,000)
 *   BENCH_SOCKETS=500 node bench/notifications.js
 */
const { spawn } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { Database } = require('sqlite3');
// `ws` is socket.io's own websocket library (installed with it).
const WebSocket = require('ws');

const ROOT = join(__dirname, '..');
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const { report, signAccess, connectSocket, freePort, sleep } = require('./lib');
const CONCURRENT_CONNECTS = 100;
const WARMUP = 1000;
const SETTLE_MS = 10_000;
const HARD_LIMIT_MS = 300_000;
const API_KEY = 'bench-service-api-key-0123456789';

let server;
let dataDir;
/** The notification exactly as the server sent it, for the bare anchor. */
let frame;
const sockets = [];

function cleanup() {
  for (const s of sockets) s.disconnect();
  if (server && server.exitCode === null) server.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

const hardStop = setTimeout(() => {
  console.error(`notifications bench: gave up after ${HARD_LIMIT_MS / 1000} s`);
  cleanup();
  process.exit(1);
}, HARD_LIMIT_MS);
hardStop.unref();

async function waitForHealth(base) {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    if (Date.now() > until) throw new Error('server did not become healthy in 60 s');
    await sleep(200);
  }
}

/** Resident set size of the server process in bytes (Linux /proc). */
function serverRss() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)[1]);
  return kb * 1024;
}

function sqlite(path) {
  const db = new Database(path);
  db.configure('busyTimeout', 10_000);
  const run = (sql, params = []) =>
    new Promise((resolve, reject) => db.run(sql, params, function (err) { return err ? reject(err) : resolve(this.lastID); }));
  const close = () => new Promise((resolve) => db.close(() => resolve()));
  return { db, run, close };
}

/** An HS256 JWT like the server's TokenService.signAccess. */
async function seed(dir) {
  const { run, close } = sqlite(join(dir, 'app.sqlite'));
  const code = `BENCH${Date.now().toString(36)}`.toUpperCase().slice(0, 25);
  const orgId = await run(
    `INSERT INTO organisations (code, name, allowedUsersNumber, maxConcurrentUsers, maxPortfolios, applications) VALUES (?, ?, ?, ?, 0, '["TAX_MANAGER"]')`,
    [code, 'Bench organisation', SOCKETS + 10, SOCKETS + 10],
  );
  const sessions = [];
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  await run('BEGIN');
  for (let i = 0; i < SOCKETS; i++) {
    const userId = await run(
      `INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, NULL, 'Bench', ?, 7, 0)`,
      [orgId, `bench-${i}@bench.test`, String(i)],
    );
    const sid = randomUUID();
    await run(`INSERT INTO sessions (id, userId, organisationId, createdAt, lastRefreshAt) VALUES (?, ?, ?, ?, ?)`, [sid, userId, orgId, now, now]);
    sessions.push({ userId, sid });
  }
  await run('COMMIT');
  await close();
  return { orgId, sessions };
}

/** One light client (bench/lib.js connectSocket); keeps the first notification frame for the bare anchor. */
async function connectOne(base, token, onNotification) {
  const socket = await connectSocket(base, token, (text) => {
    if (!text.startsWith('42["notification"')) return;
    frame ??= text;
    onNotification();
  });
  const handle = { disconnect: () => socket.close() };
  sockets.push(handle);
  return handle;
}

async function bareBroadcast(n, text) {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', `
    const WebSocket = require('ws');
    const http = require('node:http');
    const frame = ${JSON.stringify(text)};
    const srv = http.createServer((req, res) => { for (const c of wss.clients) c.send(frame); res.end('ok'); });
    const wss = new WebSocket.Server({ server: srv, perMessageDeflate: false });
    wss.on('connection', (ws) => ws.send('ready'));
    srv.listen(${port}, '127.0.0.1');
  `], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (const until = Date.now() + 20_000; ; await sleep(200)) {
      const up = await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false);
      if (up) break;
      if (Date.now() > until) throw new Error('the bare ws server did not start');
    }
    const clients = [];
    const got = [];
    let at = 0;
    const one = () => new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
      clients.push(ws);
      ws.on('message', (d) => (d.toString() === 'ready' ? resolve() : got.push(performance.now() - at)));
      ws.on('error', reject);
    });
    for (let i = 0; i < n; i += CONCURRENT_CONNECTS) await Promise.all(Array.from({ length: Math.min(CONCURRENT_CONNECTS, n - i) }, one));
    await sleep(1000);
    at = performance.now();
    await fetch(`http://127.0.0.1:${port}/`);
    const until = Date.now() + 20_000;
    while (got.length < n && Date.now() < until) await sleep(10);
    for (const c of clients) c.terminate();
    const s = got.sort((a, b) => a - b);
    return { p50: percentile(s, 50), p99: percentile(s, 99) };
  } finally {
    child.kill();
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first');
  dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-bench-notif-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      LOG_LEVEL: 'error',
      SERVICE_API_KEY: API_KEY,
      BOOTSTRAP_SUPPORT_EMAIL: 'support@bench.test',
      BOOTSTRAP_SUPPORT_PASSWORD: 'Bench-Support-1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForHealth(base);
  const secret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim();
  const { orgId, sessions } = await seed(dataDir);

  // Warm-up: 1,000 connections opened and closed first, so that the figure is the memory a connection keeps
  // in steady state, not the one-off growth of the V8 heap's young generation under the first connections.
  const warm = [];
  for (let i = 0; i < Math.min(WARMUP, sessions.length); i += CONCURRENT_CONNECTS) {
    warm.push(...(await Promise.all(sessions.slice(i, Math.min(WARMUP, i + CONCURRENT_CONNECTS)).map((s) => connectOne(base, signAccess(secret, s.userId, s.sid), () => {})))));
  }
  for (const s of warm) s.disconnect();
  sockets.length = 0;
  // V8's memory reducer collects the garbage of a burst some seconds after it: measure after it had time.
  await sleep(SETTLE_MS);
  const rssBefore = serverRss();

  const delivered = [];
  let publishedAt = 0;
  const onNotification = () => delivered.push(performance.now() - publishedAt);
  const connectStart = performance.now();
  for (let i = 0; i < sessions.length; i += CONCURRENT_CONNECTS) {
    await Promise.all(sessions.slice(i, i + CONCURRENT_CONNECTS).map((s) => connectOne(base, signAccess(secret, s.userId, s.sid), onNotification)));
  }
  const connectMs = performance.now() - connectStart;
  await sleep(SETTLE_MS);
  const rssAfter = serverRss();

  publishedAt = performance.now();
  const res = await fetch(`${base}/api/notifications`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': API_KEY },
    body: JSON.stringify({ organisationId: orgId, type: 'RELEASE_NOTES', content: { summary: 'Benchmark release notes' } }),
  });
  const answeredMs = performance.now() - publishedAt;
  if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
  const until = Date.now() + 20_000;
  while (delivered.length < sessions.length && Date.now() < until) await sleep(10);

  const sorted = [...delivered].sort((a, b) => a - b);
  const f = (ms) => (ms === undefined ? 'n/a' : `${ms.toFixed(1)} ms`);
  console.log(`sockets connected:            ${sockets.length} (in ${(connectMs / 1000).toFixed(1)} s)`);
  console.log(`publish call answered after:  ${f(answeredMs)}`);
  console.log(`delivered:                    ${delivered.length}/${sessions.length}`);
  console.log(`time to 50th percentile:      ${f(percentile(sorted, 50))}`);
  console.log(`time to 99th percentile:      ${f(percentile(sorted, 99))}`);
  console.log(`time to last delivery:        ${f(sorted[sorted.length - 1])}`);
  console.log(`server RSS before / after:    ${(rssBefore / 2 ** 20).toFixed(1)} MiB / ${(rssAfter / 2 ** 20).toFixed(1)} MiB`);
  console.log(`server memory per connection: ${((rssAfter - rssBefore) / sessions.length / 1024).toFixed(1)} KiB`);
  report(`socket memory per connection at ${sessions.length / 1000}k`, `${((rssAfter - rssBefore) / sessions.length / 1024).toFixed(1)} KiB (server RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(rssAfter / 2 ** 20).toFixed(0)} MiB, after a warm-up of ${WARMUP} connections)`);
  report(`notification fan-out to ${sessions.length / 1000}k sockets`, `p50 ${f(percentile(sorted, 50))}, p99 ${f(percentile(sorted, 99))}, last ${f(sorted[sorted.length - 1])}; ${delivered.length}/${sessions.length} delivered`);
  if (delivered.length < sessions.length) process.exitCode = 1;

  // The anchor: a bare `ws` server (its own process, as the product's) broadcasting the same frame to as many
  // plain websockets, received by this same load generator.
  for (const s of sockets) s.disconnect();
  sockets.length = 0;
  server.kill('SIGTERM');
  const bare = await bareBroadcast(sessions.length, frame);
  report(`notification fan-out to ${sessions.length / 1000}k sockets (bare ws)`, `p50 ${f(bare.p50)}, p99 ${f(bare.p99)}: the product's p99 is ${(percentile(sorted, 99) / bare.p99).toFixed(1)}x the bare broadcast's`);
}

main()
  .catch((e) => {
    console.error(`notifications bench failed: ${e.message}`);
    process.exitCode = 1;
  })
  .finally(() => {
    cleanup();
    setTimeout(() => process.exit(), 500).unref();
  });
