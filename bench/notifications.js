#!/usr/bin/env node
/**
 * Notifications benchmark: starts the built server (dist/) on a temporary DATA_DIR and a free
 * port on 127.0.0.1, seeds one organisation with N users (and 1,000 more for the warm-up) and open sessions
 * straight into SQLite, signs their access tokens with the generated JWT secret, and measures:
 * - the server's memory per connection as an operator reads it: a warm-up of 1,000 sockets kept open, then N
 *   sockets opened with the product's own client library (socket.io-client; BENCH_CLIENT=engine.io for raw
 *   clients), settled 3 s (BENCH_SETTLE_MS), the resident memory (RSS, from /proc) before and after with no
 *   forced collection (the README row's figure), where it grew (heap spaces, outside the heap), and beside it
 *   the V8 heap the sockets keep after a full collection through the server's inspector;
 * - the fan-out: N raw engine.io sockets, ONE organisation notification published through the service API
 *   (BENCH_ROUNDS times, 9 by default, each timed on its own; 0 measures the memory alone), the median
 *   broadcast's time until the 50th percentile, 99th percentile and last delivery, beside a bare `ws` server
 *   broadcasting the same frame to as many sockets, the two in turn within each round.
 * BENCH_HEAP_SNAPSHOT=<dir> writes heap snapshots before and after the measured sockets (bench/heap-account.js);
 * BENCH_ALLOC_PROFILE=<file> V8's sampling heap profile of their connections. Stops by itself (hard limit 300 s)
 * and cleans up.
 *
 * The sockets live in BENCH_SOCKET_PROCESSES (2) child processes (bench/socket-clients.js), timed with the
 * machine's one monotonic clock.
 *
 *   node bench/notifications.js            # 10,000 sockets (needs `ulimit -n` above 11,000)
 *   BENCH_SOCKETS=500 node bench/notifications.js
 */
const { fork, spawn } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} = require('node:fs');
const { loadavg, tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { Database } = require('sqlite3');
// `ws` is socket.io's own websocket library (installed with it).
const WebSocket = require('ws');

const ROOT = join(__dirname, '..');
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const { report, signAccess, freePort, sleep, serverNodeArgs, asInService } = require('./lib');
/** Client processes of the load generator (bench/socket-clients.js). */
const PROCESSES = Number(process.env.BENCH_SOCKET_PROCESSES ?? 2);
/** Delivery times come from process.hrtime in every process: CLOCK_MONOTONIC, one clock for the machine. */
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const WARMUP = 1000;
/** Broadcasts timed, each on its own (BENCH_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
/** Settling time before each memory reading (an operator reads the figure a few seconds after a burst). */
const MEMORY_SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 3000);
/** The client library the memory is measured with: the product's own (socket.io-client) or raw engine.io. */
const MEMORY_CLIENT = process.env.BENCH_CLIENT ?? 'socket.io-client';
/** BENCH_HEAP_SNAPSHOT=<dir>: heap snapshots of the server before and after the measured sockets (bench/heap-account.js). */
const SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT;
const HARD_LIMIT_MS = 300_000;
const API_KEY = 'bench-service-api-key-0123456789';

let server;
let dataDir;
/** The notification exactly as the server sent it, for the bare anchor. */
let frame;
const clientProcesses = [];
/** The bare `ws` anchor's process, while it runs. */
let bareProcess;

function cleanup() {
  for (const c of clientProcesses) c.kill();
  if (bareProcess && bareProcess.exitCode === null) bareProcess.kill();
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
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    if (Date.now() > until) throw new Error('server did not become healthy in 60 s');
    await sleep(200);
  }
  await asInService(base);
}

/** Resident set size of the server process in bytes (Linux /proc). */
function serverRss() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)[1]);
  return kb * 1024;
}

/** The server's open file descriptors: one per socket, so their count shows when closed sockets are gone. */
const serverFds = () => readdirSync(`/proc/${server.pid}/fd`).length;

/** Waits (at most 60 s) until the server has closed all but `base` descriptors. */
async function socketsGone(base) {
  for (const until = Date.now() + 60_000; serverFds() > base + 10 && Date.now() < until;) await sleep(250);
}

function sqlite(path) {
  const db = new Database(path);
  db.configure('busyTimeout', 10_000);
  const run = (sql, params = []) =>
    new Promise((resolve, reject) =>
      db.run(sql, params, function (err) {
        return err ? reject(err) : resolve(this.lastID);
      }),
    );
  const close = () => new Promise((resolve) => db.close(() => resolve()));
  return { db, run, close };
}

/** An HS256 JWT like the server's TokenService.signAccess. */
async function seed(dir) {
  const { run, close } = sqlite(join(dir, 'app.sqlite'));
  const code = `BENCH${Date.now().toString(36)}`.toUpperCase().slice(0, 25);
  const orgId = await run(
    `INSERT INTO organisations (code, name, allowedUsersNumber, maxConcurrentUsers, maxPortfolios, applications) VALUES (?, ?, ?, ?, 0, '["TAX_MANAGER"]')`,
    [code, 'Bench organisation', SOCKETS + WARMUP + 10, SOCKETS + WARMUP + 10],
  );
  const sessions = [];
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  await run('BEGIN');
  for (let i = 0; i < SOCKETS + WARMUP; i++) {
    const userId = await run(
      `INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, NULL, 'Bench', ?, 7, 0)`,
      [orgId, `bench-${i}@bench.test`, String(i)],
    );
    const sid = randomUUID();
    await run(`INSERT INTO sessions (id, userId, organisationId, createdAt, lastRefreshAt) VALUES (?, ?, ?, ?, ?)`, [
      sid,
      userId,
      orgId,
      now,
      now,
    ]);
    sessions.push({ userId, sid });
  }
  await run('COMMIT');
  await close();
  return { orgId, sessions };
}

/** The load generator's child processes (bench/socket-clients.js), each with a share of the sockets. */
function startClients(n) {
  return Array.from({ length: n }, () => {
    const child = fork(join(__dirname, 'socket-clients.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let pending;
    child.on('message', (answer) => pending?.resolve(answer));
    child.on('exit', (code) => pending?.reject(new Error(`a client process exited (${code})`)));
    const ask = (msg) =>
      new Promise((resolve, reject) => {
        pending = { resolve, reject };
        child.send(msg);
      });
    clientProcesses.push(child);
    return { ask, child };
  });
}

/** Opens one socket per path, spread over the client processes; throws unless every one connected. */
async function connectAll(clients, port, paths, mode) {
  const share = Math.ceil(paths.length / clients.length);
  const answers = await Promise.all(
    clients.map((c, i) => c.ask({ cmd: 'connect', port, mode, paths: paths.slice(i * share, (i + 1) * share) })),
  );
  const failed = answers.reduce((a, r) => a + r.failed, 0);
  if (failed) throw new Error(`${failed} sockets did not connect: ${answers.find((r) => r.firstError)?.firstError}`);
  return answers.reduce((a, r) => a + r.connected, 0);
}

/** Delivery times (ms after `publishedAt`, the same monotonic clock), once `expected` arrived or after 20 s. */
async function deliveries(clients, publishedAt, expected) {
  const until = Date.now() + 20_000;
  const times = [];
  for (;;) {
    await sleep(250);
    const answers = await Promise.all(clients.map((c) => c.ask({ cmd: 'collect' })));
    for (const r of answers) times.push(...r.times);
    frame ??= answers.find((r) => r.frame)?.frame;
    if (times.length >= expected || Date.now() > until) return times.map((t) => t - publishedAt).sort((a, b) => a - b);
  }
}

/** The median broadcast (by p99) of a series, beside the best and worst p99. */
function summarise(results, expected) {
  const byP99 = [...results].sort((a, b) => a.p99 - b.p99);
  const median = byP99[Math.floor((byP99.length - 1) / 2)];
  return {
    ...median,
    best: byP99[0].p99,
    worst: byP99[byP99.length - 1].p99,
    delivered: Math.min(...results.map((r) => r.delivered)),
    expected,
  };
}

/**
 * One broadcast is one sample of a noisy machine: ROUNDS rounds a second apart, each broadcasting once from every
 * server given (the product, then the bare anchor), each timed on its own, so that both meet the machine as it is
 * in that round; the figures are each series' median broadcast (by p99), and the median of the rounds' ratios.
 */
async function interleavedRounds(broadcasts, expected) {
  const series = broadcasts.map(() => []);
  for (let i = 0; i < ROUNDS; i++) {
    for (const [k, broadcast] of broadcasts.entries()) {
      await sleep(1000);
      const sorted = await broadcast();
      series[k].push({
        first: sorted[0],
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        last: sorted[sorted.length - 1],
        delivered: sorted.length,
      });
    }
  }
  const ratios = series[0].map((r, i) => r.p99 / (series[1]?.[i].p99 ?? r.p99)).sort((a, b) => a - b);
  return { summaries: series.map((r) => summarise(r, expected)), ratio: ratios[Math.floor((ratios.length - 1) / 2)] };
}

/** A session with the server's inspector (--inspect): `call(method, params)` answers the method's result. */
async function inspector(inspectPort) {
  const [{ webSocketDebuggerUrl }] = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const ws = new WebSocket(webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id = 0;
  const call = (method, params) =>
    new Promise((resolve) => {
      const mine = ++id;
      const onMessage = (data) => {
        const msg = JSON.parse(data.toString());
        if (msg.id !== mine) return;
        ws.off('message', onMessage);
        resolve(msg.result);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id: mine, method, params }));
    });
  return { call, close: () => ws.close() };
}

/** Two young-generation collections in the server (its node runs with --expose-gc), none of the old space. */
async function youngCollections(inspectPort) {
  const { call, close } = await inspector(inspectPort);
  await call('Runtime.evaluate', { expression: `gc({ type: 'minor' }); gc({ type: 'minor' })` });
  close();
}

/** The server's V8 heap after a full garbage collection, through its inspector. */
async function heapAfterGc(inspectPort) {
  const { call, close } = await inspector(inspectPort);
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
  const { usedSize } = await call('Runtime.getHeapUsage');
  close();
  return usedSize;
}

/**
 * Where the server's memory is, as it is (no collection): process.memoryUsage() and each V8 heap space's used and
 * committed bytes, in bytes.
 */
async function memoryBreakdown(inspectPort) {
  const { call, close } = await inspector(inspectPort);
  const { result } = await call('Runtime.evaluate', {
    expression: `JSON.stringify({ usage: process.memoryUsage(), spaces: process.mainModule.require('v8').getHeapSpaceStatistics() })`,
    returnByValue: true,
  });
  close();
  return JSON.parse(result.value);
}

/** The difference of two breakdowns per measured socket, in KiB: what grew where. */
function breakdownDelta(before, after, n) {
  const k = (bytes) => (bytes / n / 1024).toFixed(2);
  const usage = Object.keys(after.usage).map((key) => `${key} ${k(after.usage[key] - before.usage[key])}`);
  const spaces = after.spaces.map((space) => {
    const was = before.spaces.find((s) => s.space_name === space.space_name);
    return `${space.space_name} used ${k(space.space_used_size - was.space_used_size)} / committed ${k(space.physical_space_size - was.physical_space_size)}`;
  });
  return `${usage.join(', ')}\n  ${spaces.join('\n  ')}`;
}

/** Writes a heap snapshot of the server through its inspector (HeapProfiler), chunk by chunk, to `file`. */
async function heapSnapshot(inspectPort, file) {
  const [{ webSocketDebuggerUrl }] = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const ws = new WebSocket(webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 2 ** 30 });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  mkdirSync(dirname(file), { recursive: true });
  const out = openSync(file, 'w');
  await new Promise((resolve) => {
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      if (msg.method === 'HeapProfiler.addHeapSnapshotChunk') writeSync(out, msg.params.chunk);
      else if (msg.id === 1) resolve();
    });
    ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.takeHeapSnapshot', params: { reportProgress: false } }));
  });
  closeSync(out);
  ws.close();
}

/**
 * A bare `ws` server (its own process, as the product's) that broadcasts `text` to every socket it holds when asked
 * over HTTP; `n` sockets of the client processes connected to it. `broadcast()` answers the delivery times.
 */
async function bareServer(clients, n, text) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '-e',
      `
    const WebSocket = require('ws');
    const http = require('node:http');
    const frame = ${JSON.stringify(text)};
    const srv = http.createServer((req, res) => { for (const c of wss.clients) c.send(frame); res.end('ok'); });
    const wss = new WebSocket.Server({ server: srv, perMessageDeflate: false });
    srv.listen(${port}, '127.0.0.1');
  `,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  bareProcess = child;
  for (const until = Date.now() + 20_000; ; await sleep(200)) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > until) throw new Error('the bare ws server did not start');
  }
  await connectAll(
    clients,
    port,
    Array.from({ length: n }, () => '/'),
    'bare',
  );
  return {
    broadcast: async () => {
      const at = nowMs();
      await fetch(`http://127.0.0.1:${port}/`);
      return deliveries(clients, at, n);
    },
    stop: () => child.kill(),
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first');
  dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-bench-notif-'));
  const port = await freePort();
  const inspectPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      `--inspect=127.0.0.1:${inspectPort}`,
      ...serverNodeArgs(),
      // For the young-generation collections of the memory reading (the bench's; nothing in the server calls gc).
      '--expose-gc',
      // BENCH_NODE_ARGS: extra options of the server's node (space-separated), e.g. V8 heap flags.
      ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
      join(ROOT, 'dist', 'main.js'),
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: base,
        // The default LOG_LEVEL, as in service: a line for every request (written to /dev/null).
        LOG_LEVEL: 'info',
        SERVICE_API_KEY: API_KEY,
        BOOTSTRAP_SUPPORT_EMAIL: 'support@bench.test',
        BOOTSTRAP_SUPPORT_PASSWORD: 'Bench-Support-1',
        // BENCH_SERVER_ENV: extra environment of the server, as JSON (e.g. {"SOCKET_TRANSPORT_TUNING":"off"}).
        ...JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}'),
      },
      // The inspector announces itself on stderr: not passed on.
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  await waitForHealth(base);
  const secret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim();
  const { orgId, sessions } = await seed(dataDir);
  const fdsWithoutSockets = serverFds();
  const clients = startClients(PROCESSES);
  const path = (s) =>
    `/socket.io/?EIO=4&transport=websocket&token=${encodeURIComponent(signAccess(secret, s.userId, s.sid))}`;

  const memoryPath = (s) => path(s);
  // The operator's reading: the product's own client library (socket.io-client, BENCH_CLIENT), a warm-up of
  // 1,000 sockets that stay connected, then the measured sockets of the same organisation, settled 3 s, and
  // the server's resident memory before and after, with no forced collection (what a process monitor shows).
  const warmup = sessions.slice(SOCKETS);
  const measured = sessions.slice(0, SOCKETS);
  await connectAll(clients, port, warmup.map(memoryPath), MEMORY_CLIENT);
  await sleep(MEMORY_SETTLE_MS);
  const rssBefore = serverRss();
  const breakdownBefore = await memoryBreakdown(inspectPort);
  if (SNAPSHOT_DIR) await heapSnapshot(inspectPort, join(SNAPSHOT_DIR, 'before.heapsnapshot'));
  // BENCH_ALLOC_PROFILE=<file>: V8's sampling heap profile of the measured sockets' connections, garbage included.
  const sampling = process.env.BENCH_ALLOC_PROFILE ? await inspector(inspectPort) : undefined;
  await sampling?.call('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    // BENCH_ALLOC_KEPT=1: only what is still in the heap when sampling stops (kept, or garbage not collected yet).
    includeObjectsCollectedByMajorGC: process.env.BENCH_ALLOC_KEPT !== '1',
    includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOC_KEPT !== '1',
  });
  // The first half of the measured sockets is read on its own as well (settled, no forced GC): the same reading a
  // fresh server with half as many sockets gives, in the same run.
  const half = measured.slice(0, Math.floor(measured.length / 2));
  const connectStart = performance.now();
  let connected = await connectAll(clients, port, half.map(memoryPath), MEMORY_CLIENT);
  await sleep(MEMORY_SETTLE_MS);
  const rssHalf = serverRss();
  const settledMs = MEMORY_SETTLE_MS;
  connected += await connectAll(clients, port, measured.slice(half.length).map(memoryPath), MEMORY_CLIENT);
  const connectMs = performance.now() - connectStart - settledMs;
  if (sampling) {
    const { profile } = await sampling.call('HeapProfiler.stopSampling');
    sampling.close();
    writeFileSync(process.env.BENCH_ALLOC_PROFILE, JSON.stringify(profile));
  }
  await sleep(MEMORY_SETTLE_MS);
  const rssAfter = serverRss();
  const breakdownAfter = await memoryBreakdown(inspectPort);
  // The same reading once what the sockets keep has left V8's young generation: two young-generation collections
  // (no full one, so the old space's garbage stays) move it to the old space, where it counts in the delta even when
  // the young generation was committed before the sockets came (the server's node starts it at full size).
  await youngCollections(inspectPort);
  await sleep(MEMORY_SETTLE_MS);
  const rssAfterYoung = serverRss();
  if (SNAPSHOT_DIR) await heapSnapshot(inspectPort, join(SNAPSHOT_DIR, 'after.heapsnapshot'));
  // Beside it, the V8 heap the measured sockets keep: after a full collection with them and after one once
  // they are closed (the warm-up's stay open).
  const heapAfter = await heapAfterGc(inspectPort);
  await Promise.all(clients.map((c) => c.ask({ cmd: 'close' })));
  await socketsGone(fdsWithoutSockets);
  await sleep(MEMORY_SETTLE_MS);
  const heapBefore = await heapAfterGc(inspectPort);
  const rssClosed = serverRss();

  const f = (ms) => (ms === undefined ? 'n/a' : `${ms.toFixed(1)} ms`);
  const kib = (bytes, n = measured.length) => (bytes / n / 1024).toFixed(1);
  // The closed sockets are the warm-up's and the measured ones: the heap they kept is shared out over both.
  const heapKib = kib(heapAfter - heapBefore, measured.length + warmup.length);
  console.log(
    `sockets connected:            ${connected} (in ${(connectMs / 1000).toFixed(1)} s, ${PROCESSES} client processes, ${MEMORY_CLIENT})`,
  );
  console.log(
    `server RSS before / after / all closed: ${(rssBefore / 2 ** 20).toFixed(1)} MiB / ${(rssAfter / 2 ** 20).toFixed(1)} MiB / ${(rssClosed / 2 ** 20).toFixed(1)} MiB`,
  );
  console.log(
    `V8 heap after GC, with / without the sockets: ${(heapAfter / 2 ** 20).toFixed(1)} MiB / ${(heapBefore / 2 ** 20).toFixed(1)} MiB`,
  );
  console.log(
    `server memory per connection: ${kib(rssAfter - rssBefore)} KiB RSS (no forced GC), ${heapKib} KiB of V8 heap after GC`,
  );
  console.log(
    `per measured socket, KiB (no collection): ${breakdownDelta(breakdownBefore, breakdownAfter, measured.length)}`,
  );
  console.log(
    `after two young-generation collections: ${kib(rssAfterYoung - rssBefore)} KiB RSS per connection (no full GC)`,
  );
  report(
    `socket memory per connection at ${half.length / 1000}k`,
    `${kib(rssHalf - rssBefore, half.length)} KiB RSS (the first ${half.length} of the run's ${MEMORY_CLIENT} sockets, read before the rest connected: server RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(rssHalf / 2 ** 20).toFixed(0)} MiB after a warm-up of ${WARMUP} sockets kept open, settled ${MEMORY_SETTLE_MS / 1000} s, no forced GC)`,
  );
  report(
    `socket memory per connection at ${measured.length / 1000}k`,
    `${kib(rssAfter - rssBefore)} KiB RSS (${MEMORY_CLIENT} sockets; server RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(rssAfter / 2 ** 20).toFixed(0)} MiB after a warm-up of ${WARMUP} sockets kept open, settled ${MEMORY_SETTLE_MS / 1000} s, no forced GC), ${kib(rssAfterYoung - rssBefore)} KiB once the young generation has turned over twice; ${heapKib} KiB of V8 heap after a full GC`,
  );
  if (ROUNDS === 0) return;

  // The fan-out: the measured sockets again, as raw engine.io clients (no client library between the frame and
  // its timestamp), beside a bare `ws` server broadcasting the same frame to as many plain websockets of the same
  // client processes, the two broadcasting in turn within each round.
  await connectAll(clients, port, measured.map(path), 'engine.io');
  let answeredMs = 0;
  const publish = async () => {
    const publishedAt = nowMs();
    const res = await fetch(`${base}/api/notifications`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': API_KEY },
      body: JSON.stringify({
        organisationId: orgId,
        type: 'RELEASE_NOTES',
        content: { summary: 'Benchmark release notes' },
      }),
    });
    answeredMs = Math.max(answeredMs, nowMs() - publishedAt);
    if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
    return deliveries(clients, publishedAt, measured.length);
  };
  // One broadcast first, not timed: the frame the bare server is to send, as the product sent it.
  await publish();
  const bare = await bareServer(clients, measured.length, frame);
  const {
    summaries: [fanOut, bareOut],
    ratio,
  } = await interleavedRounds([publish, bare.broadcast], measured.length);
  bare.stop();
  console.log(`publish call answered after:  at most ${f(answeredMs)} (${ROUNDS} broadcasts)`);
  console.log(`delivered:                    at least ${fanOut.delivered}/${measured.length} each`);
  console.log(`time to 50th percentile:      ${f(fanOut.p50)} (the median broadcast)`);
  console.log(`time to 99th percentile:      ${f(fanOut.p99)} (best ${f(fanOut.best)}, worst ${f(fanOut.worst)})`);
  console.log(`time to last delivery:        ${f(fanOut.last)}`);
  // The first delivery's time is the publish path's alone (the call, its checks and its stored row), before any loop.
  console.log(
    `time to first delivery:       ${f(fanOut.first)} (bare ws ${f(bareOut.first)}); p99 less first: ${f(fanOut.p99 - fanOut.first)} (bare ws ${f(bareOut.p99 - bareOut.first)})`,
  );
  console.log(
    `load average:                 ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  report(
    `notification fan-out to ${measured.length / 1000}k sockets`,
    `p50 ${f(fanOut.p50)}, p99 ${f(fanOut.p99)}, last ${f(fanOut.last)} (median of ${ROUNDS} broadcasts; p99 from ${f(fanOut.best)} to ${f(fanOut.worst)}); ${fanOut.delivered}/${measured.length} delivered each (${PROCESSES} client processes, load ${loadavg()[0].toFixed(1)})`,
  );
  if (fanOut.delivered < measured.length) process.exitCode = 1;
  report(
    `notification fan-out to ${measured.length / 1000}k sockets (bare ws)`,
    `p50 ${f(bareOut.p50)}, p99 ${f(bareOut.p99)} (median of ${ROUNDS}, each right after the product's in the same round; p99 from ${f(bareOut.best)} to ${f(bareOut.worst)}); ${bareOut.delivered}/${measured.length} delivered each: the product's p99 is ${(fanOut.p99 / bareOut.p99).toFixed(2)}x the bare broadcast's (the median round's ratio ${ratio.toFixed(2)}x)`,
  );
  await Promise.all(clients.map((c) => c.ask({ cmd: 'close' })));
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
