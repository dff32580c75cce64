#!/usr/bin/env node
/**
 * Several instances, on PostgreSQL and Redis (TEST_DATABASE_URL, a user that may create
 * databases, and TEST_REDIS_URL; `.ci/run` and the README show how to start both):
 * - notification fan-out across two built instances: BENCH_SOCKETS (2,000) sockets after a warm-up, half on A and
 *   half on B, each instance's memory per socket, one organisation notification published through A; time to
 *   the 50th and 99th percentile and the last delivery, on each instance (BENCH_FANOUT_ONLY=1: this alone);
 * - the user list on PostgreSQL with 10,000 users beside the same list on SQLite, measured in the same run
 *   (one page at a time with varied filters, as a person paging through it).
 *
 *   npm run build:server && TEST_DATABASE_URL=… TEST_REDIS_URL=… node bench/scale-out.js
 */
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');
const { startServer, sqlite, serverHash, login, percentile, fmt, report, signAccess, sleep } = require('./lib');
const { startFleet, nowMs } = require('./socket-fleet');

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 2000);
/** Sockets opened (and kept open) before the measured ones, half on each instance. */
const WARMUP = 1000;
const SETTLE_MS = 3000;
/** Broadcasts timed, each on its own (BENCH_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const REQUESTS = 200;
const PASSWORD = 'Scale-Out-Bench-1';

async function pg(url, fn) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh database on the server of TEST_DATABASE_URL; `drop()` removes it. */
async function freshDatabase() {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  await pg(ADMIN_URL, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => pg(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

const FIRST = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Katherine', 'Linus'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Johnson', 'Torvalds'];

/** Pages of the user list with varied filters, one at a time: p50 and p99 in ms. */
async function pages(base, token) {
  const texts = ['', '', 'ada', 'TURING', 'user7', 'hopper 1', 'nobody-matches', '50%'];
  const times = [];
  for (let i = 0; i < 20 + REQUESTS; i++) {
    const q = new URLSearchParams({ pageSize: String([25, 50, 100][i % 3]), page: String(1 + ((i * 7) % 20)) });
    if (texts[i % texts.length]) q.set('searchText', texts[i % texts.length]);
    if (i % 5 === 0) q.set('role', String(4 + (i % 4)));
    const start = performance.now();
    const res = await fetch(`${base}/api/users?${q}`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET /api/users?${q} answered ${res.status}`);
    if (i >= 20) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** The same organisation of USERS users and its site admin, in SQLite (through the file) or PostgreSQL. */
async function seedUsers(kind, target, hash) {
  const rows = Array.from({ length: USERS }, (_, i) => [
    `user${i}@bench${i % 50}.test`,
    FIRST[i % 10],
    `${LAST[(i * 7) % 10]} ${i}`,
    4 + (i % 4),
  ]);
  if (kind === 'sqlite') {
    const db = sqlite(join(target, 'app.sqlite'));
    const orgId = await db.run(
      `INSERT INTO organisations (code, name, allowedUsersNumber, maxConcurrentUsers, applications) VALUES ('LIST', 'List', ?, 100, '["TAX_MANAGER"]')`,
      [USERS + 10],
    );
    await db.run('BEGIN');
    await db.run(
      'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 2, 0)',
      [orgId, 'list.admin@bench.test', hash, 'List', 'Admin'],
    );
    for (const [email, first, last, role] of rows)
      await db.run(
        'INSERT INTO users (organisationId, email, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 0)',
        [orgId, email, first, last, role],
      );
    await db.run('COMMIT');
    await db.close();
    return;
  }
  await pg(target, async (c) => {
    const { rows: org } = await c.query(
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('LIST', 'List', $1, 100, '["TAX_MANAGER"]') RETURNING id`,
      [USERS + 10],
    );
    const orgId = org[0].id;
    await c.query(
      `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, 'list.admin@bench.test', $2, 'List', 'Admin', 2, false)`,
      [orgId, hash],
    );
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      const values = chunk
        .map((_, j) => `($1, $${j * 4 + 2}, $${j * 4 + 3}, $${j * 4 + 4}, $${j * 4 + 5}, false)`)
        .join(', ');
      await c.query(
        `INSERT INTO users ("organisationId", email, "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ${values}`,
        [orgId, ...chunk.flat()],
      );
    }
    await c.query('ANALYZE users');
  });
}

async function userList(hash) {
  const results = {};
  for (const kind of ['sqlite', 'postgres']) {
    const database = kind === 'postgres' ? await freshDatabase() : null;
    const env = database
      ? {
          DATABASE_URL: database.url,
          JWT_SECRET: randomBytes(48).toString('base64'),
          ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        }
      : {};
    const server = await startServer(env);
    try {
      await seedUsers(kind, database ? database.url : server.dataDir, hash);
      const { accessToken } = await login(server.base, 'list.admin@bench.test', PASSWORD);
      results[kind] = await pages(server.base, accessToken);
    } finally {
      await server.stop();
      await database?.drop();
    }
  }
  const line = `PostgreSQL p50 ${fmt(results.postgres.p50)} ms, p99 ${fmt(results.postgres.p99)} ms; SQLite p50 ${fmt(results.sqlite.p50)} ms, p99 ${fmt(results.sqlite.p99)} ms (same run, ${REQUESTS} pages with varied filters)`;
  console.log(`user list, ${USERS} users: ${line}`);
  report(`user list on PostgreSQL, ${USERS} users`, line);
}

/**
 * Notification fan-out across two instances: SOCKETS sockets of one organisation, half on A and half on B, each
 * half in a client process of its own (bench/socket-fleet.js), after a warm-up of WARMUP sockets kept open; each
 * instance's resident memory per socket (settled 3 s, no forced collection); one organisation notification
 * published through A, timed to each socket on either instance (BENCH_ROUNDS broadcasts, the median's figures).
 */
async function fanOut() {
  const database = await freshDatabase();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    JWT_SECRET: randomBytes(48).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const [a, b] = await Promise.all([startServer(env), startServer(env)]);
  const fleets = { A: startFleet(1), B: startFleet(1) };
  try {
    const sessions = await pg(database.url, async (c) => {
      const { rows: org } = await c.query(
        `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('FAN', 'Fan-out', $1, $1, '["TAX_MANAGER"]') RETURNING id`,
        [SOCKETS + WARMUP + 10],
      );
      const orgId = org[0].id;
      await c.query(
        `INSERT INTO users ("organisationId", email, "firstName", "lastName", "roleId", "isMFAEnforced") SELECT $1, 'fan' || g || '@bench.test', 'Fan', g::text, 7, false FROM generate_series(1, $2) g`,
        [orgId, SOCKETS + WARMUP],
      );
      const { rows } = await c.query(
        `INSERT INTO sessions (id, "userId", "organisationId", "createdAt", "lastRefreshAt") SELECT gen_random_uuid()::text, id, "organisationId", now(), now() FROM users WHERE "organisationId" = $1 RETURNING id, "userId"`,
        [orgId],
      );
      return { orgId, rows };
    });
    const path = (s) =>
      `/socket.io/?EIO=4&transport=websocket&token=${encodeURIComponent(signAccess(env.JWT_SECRET, s.userId, s.id))}`;
    const servers = { A: a, B: b };
    const half = (list, on) => list.filter((_, i) => i % 2 === (on === 'A' ? 0 : 1)).map(path);
    const warmup = sessions.rows.slice(SOCKETS);
    const measured = sessions.rows.slice(0, SOCKETS);
    for (const on of ['A', 'B']) await fleets[on].connect(new URL(servers[on].base).port, half(warmup, on));
    await sleep(SETTLE_MS);
    const rssBefore = { A: a.rss(), B: b.rss() };
    await Promise.all(['A', 'B'].map((on) => fleets[on].connect(new URL(servers[on].base).port, half(measured, on))));
    await sleep(SETTLE_MS);
    const kib = (on) => ((servers[on].rss() - rssBefore[on]) / (SOCKETS / 2) / 1024).toFixed(1);
    const memory = `A ${kib('A')} KiB, B ${kib('B')} KiB RSS per socket (after a warm-up of ${WARMUP / 2} sockets each kept open, settled ${SETTLE_MS / 1000} s, no forced GC)`;

    const perInstance = SOCKETS / 2 + WARMUP / 2;
    const results = [];
    for (let round = 0; round < ROUNDS; round++) {
      await sleep(1000);
      const publishedAt = nowMs();
      const res = await fetch(`${a.base}/api/notifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': a.apiKey },
        body: JSON.stringify({
          organisationId: sessions.orgId,
          type: 'RELEASE_NOTES',
          content: { summary: 'Scale-out benchmark' },
        }),
      });
      if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
      const [onA, onB] = await Promise.all(['A', 'B'].map((on) => fleets[on].deliveries(publishedAt, perInstance)));
      results.push({
        A: onA,
        B: onB,
        p99: percentile(
          [...onA, ...onB].sort((x, y) => x - y),
          99,
        ),
      });
    }
    const median = [...results].sort((x, y) => x.p99 - y.p99)[Math.floor((results.length - 1) / 2)];
    const f = (sorted) =>
      `p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms, last ${fmt(sorted[sorted.length - 1])} ms (${sorted.length}/${perInstance})`;
    const line = `${memory}; through A (median of ${ROUNDS} broadcasts): sockets on A ${f(median.A)}; sockets on B (via Redis) ${f(median.B)}`;
    console.log(`fan-out to ${SOCKETS} sockets on two instances, ${line}`);
    report(`notification fan-out across two instances, ${SOCKETS} sockets`, line);
    if (results.some((r) => r.A.length + r.B.length < 2 * perInstance)) process.exitCode = 1;
  } finally {
    await Promise.all([fleets.A.close(), fleets.B.close()]).catch(() => undefined);
    fleets.A.stop();
    fleets.B.stop();
    await Promise.all([a.stop(), b.stop()]);
    await database.drop();
  }
}

async function main() {
  if (!ADMIN_URL || !REDIS_URL) throw new Error('bench/scale-out.js needs TEST_DATABASE_URL and TEST_REDIS_URL');
  await fanOut();
  // BENCH_FANOUT_ONLY=1: the fan-out alone (e.g. at 2 x 10,000 sockets).
  if (!process.env.BENCH_FANOUT_ONLY) await userList(await serverHash(PASSWORD));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
