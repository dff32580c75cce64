#!/usr/bin/env node
/**
 * The user list at scale: the built server with an organisation of 100,000 users (and a second
 * one of 10,000, so the organisation filter matters) seeded straight into SQLite.
 *  - 50-row pages at 50 connections, pages spread over the whole list, against a bare node:http server
 *    answering the same bytes in this run; p99 against p50.
 *  - text search, one request at a time: a name, a common name, an e-mail part, 1 and 2 characters (their own
 *    index)
 *    and characters that must be taken literally, each against the first page without text;
 *  - with TEST_DATABASE_URL (a user that may create databases), the same organisation in PostgreSQL and the same
 *    searches there, against its own first page.
 *
 *   npm run build && node bench/user-list.js [--users 100000]
 */
const {
  startServer,
  sqlite,
  serverHash,
  seedOrganisation,
  login,
  load,
  compare,
  bareHttp,
  fmt,
  percentile,
  report,
} = require('./lib');
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const USERS = arg('users', 100_000);
const OTHER = Math.max(1000, Math.round(USERS / 10));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PASSWORD = 'Bench-Pass-12345';

const FIRST = [
  'Ada',
  'Alan',
  'Grace',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'John',
  'Katherine',
  'Linus',
  'Margaret',
  'Niklaus',
  'Radia',
  'Tim',
  'Whitfield',
];
const LAST = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Backus',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Wirth',
  'Perlman',
  'Berners-Lee',
  'Diffie',
];

/**
 * The server's database as the seeding writes it: its SQLite file, or (PostgreSQL) a client of DATABASE_URL.
 * `run(sql, params)` takes `?` placeholders and returns the new row's id.
 */
function seedTarget(server, databaseUrl) {
  if (!databaseUrl) return sqlite(`${server.dataDir}/app.sqlite`);
  const client = new Client({ connectionString: databaseUrl });
  const ready = client.connect();
  const run = async (sql, params = []) => {
    await ready;
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    const insert = /^\s*INSERT/i.test(text);
    const res = await client.query(insert ? `${text} RETURNING "id"` : text, params);
    return insert ? res.rows[0]?.id : undefined;
  };
  return { run, close: () => client.end(), postgres: true };
}

async function seed(db) {
  const hash = await serverHash(PASSWORD);
  const orgId = await seedOrganisation(db, 'BENCH', USERS);
  const otherId = await seedOrganisation(db, 'OTHER', OTHER);
  const adminEmail = 'bench.admin@bench.test';
  await db.run(
    'INSERT INTO "users" ("organisationId", "email", "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES (?, ?, ?, ?, ?, 2, ?)',
    [orgId, adminEmail, hash, 'Bench', 'Admin', false],
  );
  const roles = [4, 4, 5, 6, 7, 7, 8];
  const now = Date.now();
  await db.run('BEGIN');
  for (const [org, prefix, n] of [
    [orgId, 'user', USERS - 1],
    [otherId, 'other', OTHER],
  ]) {
    const BATCH = 400;
    for (let start = 0; start < n; start += BATCH) {
      const values = [];
      const params = [];
      for (let i = start; i < Math.min(n, start + BATCH); i++) {
        const first = FIRST[i % FIRST.length];
        const last = `${LAST[(i * 7) % LAST.length]}${i % 3 === 0 ? '' : ` ${i}`}`;
        const roleId = roles[i % roles.length];
        const lastLogin =
          i % 4 === 0 ? null : new Date(now - i * 60_000).toISOString().replace('T', ' ').replace('Z', '');
        values.push('(?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
        params.push(
          org,
          `${prefix}${i}.${first.toLowerCase()}@bench${i % 50}.test`,
          first,
          last,
          roleId,
          roleId === 4 && i % 5 === 0,
          i % 11 === 0,
          i % 37 === 0,
          true,
          i % 2 === 1,
          lastLogin,
        );
      }
      await db.run(
        `INSERT INTO "users" ("organisationId", "email", "passwordHash", "firstName", "lastName", "roleId", "isAdministrator", "isDisabled", "isBlocked", "isMFAEnforced", "isMFAEnabled", "lastLoginAt") VALUES ${values.join(', ')}`,
        params,
      );
    }
  }
  await db.run('COMMIT');
  // PostgreSQL: vacuumed as a long-lived table is (a fresh bulk insert has no visibility map yet).
  await db.run(db.postgres ? 'VACUUM ANALYZE' : 'ANALYZE');
  await db.close();
  return adminEmail;
}

async function timed(base, headers, query, n) {
  const times = [];
  let body;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(`${base}/api/users?${query}`, { headers });
    body = await res.json();
    if (!res.ok) throw new Error(`GET /api/users?${query}: ${res.status} ${JSON.stringify(body)}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    total: body.totalIsCapped ? `more than ${body.totalRecords}` : body.totalRecords,
  };
}

/** Text searches, one at a time, each against the first page without text: p50 ms, ratio and the total found. */
async function searches(base, headers) {
  const N = 40;
  const firstPage = await timed(base, headers, 'pageSize=50&page=1', N);
  const cases = [
    ['name', 'searchText=hopper%201'],
    ['name, common', 'searchText=ada'],
    ['e-mail part', 'searchText=%40bench3'],
    ['no match', 'searchText=nobody-matches'],
    ['2 characters', 'searchText=zz'],
    ['2 characters, common', 'searchText=on'],
    ['1 character', 'searchText=k'],
    ['% _ \\ " literal', `searchText=${encodeURIComponent('50%_\\"')}`],
  ];
  const parts = [];
  for (const [name, q] of cases) {
    const r = await timed(base, headers, `pageSize=50&page=1&${q}`, N);
    parts.push(`${name} ${fmt(r.p50)} ms (${fmt(r.p50 / firstPage.p50, 2)}x, ${r.total} found)`);
  }
  return `${parts.join('; ')}; first page ${fmt(firstPage.p50)} ms`;
}

// USER_LIST_ONLY=sqlite or postgres runs one of the two, e.g. while working on one.
const ONLY = process.env.USER_LIST_ONLY;

async function main() {
  if (ONLY !== 'postgres') await onSqlite();
  // PostgreSQL (TEST_DATABASE_URL, a user that may create databases): the same organisation, the same searches.
  if (ONLY === 'sqlite') return;
  if (process.env.TEST_DATABASE_URL) await onPostgres();
  else console.log('  text search on PostgreSQL: not run (TEST_DATABASE_URL unset)');
}

async function onPostgres() {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = async (sql) => {
    const c = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const server = await startServer({
    DATABASE_URL: url.toString(),
    JWT_SECRET: randomBytes(48).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  try {
    const t0 = Date.now();
    const email = await seed(seedTarget(server, url.toString()));
    console.log(`  seeded ${USERS} + ${OTHER} users in PostgreSQL in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const { accessToken } = await login(server.base, email, PASSWORD);
    const line = await searches(server.base, { authorization: `Bearer ${accessToken}` });
    report(`text search on PostgreSQL at ${USERS / 1000}k users (p50)`, line);
  } finally {
    await server.stop();
    if (process.env.BENCH_KEEP) console.log(`  database kept: ${url}`);
    else await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function onSqlite() {
  const server = await startServer();
  try {
    const t0 = Date.now();
    const email = await seed(seedTarget(server));
    console.log(`  seeded ${USERS} + ${OTHER} users in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const { accessToken } = await login(server.base, email, PASSWORD);
    const headers = { authorization: `Bearer ${accessToken}` };

    // Pages at 50 connections: a spread over the whole list, deep pages included.
    const pages = Math.ceil(USERS / 50);
    let k = 0;
    const paths = Array.from({ length: 997 }, (_, i) => `/api/users?pageSize=50&page=${1 + ((i * 7919) % pages)}`);
    const first = await fetch(`${server.base}/api/users?pageSize=50&page=1`, { headers });
    const firstBody = await first.json();
    if (firstBody.totalRecords !== USERS)
      throw new Error(`expected ${USERS} users, the list says ${firstBody.totalRecords}`);
    const bytes = Buffer.from(JSON.stringify(firstBody));
    const bare = await bareHttp(bytes);
    await load(server.base, {
      connections: 50,
      seconds: 1,
      warmupSeconds: 0,
      next: () => ({ path: paths[k++ % paths.length], headers }),
    });
    const { product: list, bare: bareRun } = await compare(
      server.base,
      { connections: 50, next: () => ({ path: paths[k++ % paths.length], headers }) },
      bare.base,
      { connections: 50, next: () => ({ path: '/api/users' }) },
      { rounds: SECONDS },
    );
    await bare.close();
    report(
      `user list, 50-row page, ${USERS / 1000}k users, 50 connections`,
      `${fmt(list.rps, 0)} req/s, p50 ${fmt(list.p50)} ms, p99 ${fmt(list.p99)} ms (${fmt(list.p99 / list.p50)}x p50): ${fmt(list.rps / bareRun.rps, 3)} of bare node:http (${fmt(bareRun.rps, 0)}/s)${list.errors ? `; ${list.errors} errors: ${list.firstError}` : ''}`,
    );

    report(`text search at ${USERS / 1000}k users (p50)`, await searches(server.base, headers));
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(`user-list bench failed: ${e.stack ?? e}`);
  process.exitCode = 1;
});
