#!/usr/bin/env node
/**
 * Benchmark of webhooks, on the BUILT server (dist/main.js), with a receiver on loopback answering 204:
 *
 * 1. Deliveries per second: a backlog of 2,000 deliveries for one endpoint written into the outbox at once, and the
 *    time until the last has arrived; every event must arrive once.
 * 2. The added cost of the outbox on POST /api/users/add: two servers side by side, one organisation each, one
 *    with an endpoint subscribed to user.created and one without; users added to both in alternation (so the
 *    machine's load falls on both alike); medians side by side.
 *
 *   npm run build:server && node bench/webhooks.js [--events 2000] [--users 300]
 */
const { createServer } = require('node:http');
const { join } = require('node:path');
const { report, startServer, sqlite, serverHash, seedOrganisation, login, sleep, sqlNow } = require('./lib');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const EVENTS = arg('events', 2000);
const USERS = arg('users', 300);
const WARMUP = 20;
const PASSWORD = 'Bench-Hooks-Pass-1';

/** A receiver that counts what arrives, by webhook-id. */
async function receiver() {
  const seen = new Map();
  const times = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      seen.set(id, (seen.get(id) ?? 0) + 1);
      times.push(performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, seen, times, close: () => server.close() };
}

/** A server with one organisation and its site admin, signed in. */
async function serverWithAdmin() {
  const server = await startServer({ ALLOW_PRIVATE_NETWORKS: 'true' });
  const db = sqlite(join(server.dataDir, 'app.sqlite'));
  const orgId = await seedOrganisation(db, 'HOOKS', USERS + WARMUP + 10);
  const email = 'hooks.admin@bench.test';
  await db.run(
    'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 2, 0)',
    [orgId, email, await serverHash(PASSWORD), 'Hooks', 'Admin'],
  );
  await db.close();
  const { accessToken } = await login(server.base, email, PASSWORD);
  return { server, auth: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` } };
}

async function call(base, auth, method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers: auth, body: body && JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const rx = await receiver();
  const withHook = await serverWithAdmin();
  const without = await serverWithAdmin();
  try {
    const { id } = await call(withHook.server.base, withHook.auth, 'POST', '/api/webhooks', {
      url: rx.url,
      events: ['user.created'],
    });

    // 1. Throughput: a backlog written straight into the outbox, as a burst of changes would leave it.
    const db = sqlite(join(withHook.server.dataDir, 'app.sqlite'));
    const payload = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} });
    await db.run('BEGIN');
    for (let i = 0; i < EVENTS; i++)
      await db.run(
        `INSERT INTO integration_deliveries ("endpointId", "eventId", "type", "payload", "occurredAt", "status", "attempts", "nextAttemptAt") VALUES (?, ?, 'webhook.test', ?, ?, 'pending', 0, ?)`,
        [id, `msg_bench${String(i).padStart(27, '0')}`, payload, sqlNow(), sqlNow()],
      );
    await db.run('COMMIT');
    await db.close();
    const start = performance.now();
    const until = Date.now() + 300_000;
    while (rx.times.length < EVENTS && Date.now() < until) await sleep(50);
    const drainS = (performance.now() - start) / 1000;
    await sleep(1000);
    const once = [...rx.seen.values()].every((n) => n === 1);
    const rate = rx.seen.size / drainS;
    console.log(
      `Deliveries: ${rx.seen.size}/${EVENTS} arrived (${once ? 'each once' : 'SOME TWICE'}) in ${drainS.toFixed(1)} s`,
    );
    report(
      'webhook deliveries/s to a loopback receiver (`bench/webhooks.js`)',
      `${rate.toFixed(0)}/s (a backlog of ${EVENTS} drained in ${drainS.toFixed(1)} s, ${once ? 'each once' : 'some twice'}; SQLite, one instance)`,
    );

    // 2. The outbox's cost on adding a user.
    const times = { with: [], without: [] };
    for (let i = 0; i < WARMUP + USERS; i++) {
      const pair = [
        ['with', withHook],
        ['without', without],
      ];
      for (const [name, s] of i % 2 ? pair : pair.reverse()) {
        const t0 = performance.now();
        await call(s.server.base, s.auth, 'POST', '/api/users/add', { userEmail: `bench-${name}-${i}@hooks.test` });
        if (i >= WARMUP) times[name].push(performance.now() - t0);
      }
    }
    const [a, b] = [median(times.without), median(times.with)];
    console.log(
      `POST /api/users/add, median of ${USERS}: no endpoint ${a.toFixed(2)} ms, one endpoint ${b.toFixed(2)} ms`,
    );
    report(
      'outbox cost on POST /api/users/add (`bench/webhooks.js`)',
      `${a.toFixed(1)} → ${b.toFixed(1)} ms (${(((b - a) / a) * 100).toFixed(1)} %) median, no endpoint → one subscribed endpoint (${USERS} each, alternating)`,
    );
  } finally {
    await withHook.server.stop();
    await without.server.stop();
    rx.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
