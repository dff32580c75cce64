#!/usr/bin/env node
/**
 * Directory provisioning through SCIM 2.0, on the built server (SQLite):
 *  - 10,000 users created by POST /scim/v2/Users (8 at a time, as a directory's first synchronisation sends them),
 *    beside POST /api/users/add in the same run (fewer users: each hashes a temporary password and queues an e-mail);
 *  - the organisation then grown to 100,000 users (seeded straight into SQLite), and a directory's lookup
 *    (`filter=userName eq "…"`) timed against the first page of GET /scim/v2/Users (100 users).
 *
 *   npm run build && node bench/scim.js [--users 10000] [--add 1000] [--total 100000]
 */
const { startServer, sqlite, serverHash, seedOrganisation, login, fmt, percentile, report } = require('./lib');
const { performance } = require('node:perf_hooks');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SCIM_USERS = arg('users', 10_000);
const ADDED_USERS = arg('add', 1_000);
const TOTAL = arg('total', 100_000);
const CONCURRENCY = 8;
const PASSWORD = 'Bench-Pass-12345';
const SCIM_TYPE = 'application/scim+json';

/** Runs `make(i)` for i < n, `concurrency` at a time; returns the seconds taken. */
async function pool(n, concurrency, make) {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) await make(i);
    }),
  );
  return (performance.now() - t) / 1000;
}

async function check(res, what) {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res;
}

async function timedGet(base, headers, path, n) {
  const times = [];
  let body;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await check(await fetch(`${base}${path}`, { headers }), `GET ${path}`);
    body = await res.json();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), body };
}

async function main() {
  const server = await startServer();
  try {
    const db = sqlite(`${server.dataDir}/app.sqlite`);
    const orgId = await seedOrganisation(db, 'SCIM', TOTAL + ADDED_USERS + 10);
    const adminEmail = 'scim.admin@bench.test';
    await db.run(
      'INSERT INTO "users" ("organisationId", "email", "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES (?, ?, ?, ?, ?, 2, ?)',
      [orgId, adminEmail, await serverHash(PASSWORD), 'Scim', 'Admin', false],
    );
    const admin = await login(server.base, adminEmail, PASSWORD);
    const auth = { authorization: `Bearer ${admin.accessToken}`, 'content-type': 'application/json' };
    const made = await check(
      await fetch(`${server.base}/api/scim-tokens`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'Bench' }),
      }),
      'token',
    );
    const { token } = await made.json();
    const scim = { authorization: `Bearer ${token}`, 'content-type': SCIM_TYPE, accept: SCIM_TYPE };

    const scimSeconds = await pool(SCIM_USERS, CONCURRENCY, async (i) => {
      const res = await fetch(`${server.base}/scim/v2/Users`, {
        method: 'POST',
        headers: scim,
        body: JSON.stringify({
          schemas: [
            'urn:ietf:params:scim:schemas:core:2.0:User',
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
          ],
          userName: `scim${i}@directory.test`,
          externalId: `ext-${i}`,
          name: { givenName: `Given${i}`, familyName: `Family${i % 97}` },
          title: 'Analyst',
          active: true,
          'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: `Dept ${i % 13}` },
        }),
      });
      if (res.status !== 201) throw new Error(`POST /scim/v2/Users: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    });
    const addSeconds = await pool(ADDED_USERS, CONCURRENCY, async (i) => {
      const res = await fetch(`${server.base}/api/users/add`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ userEmail: `added${i}@bench.test`, userRoleIds: [4] }),
      });
      if (res.status !== 201) throw new Error(`POST /api/users/add: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    });
    const scimRate = SCIM_USERS / scimSeconds;
    const addRate = ADDED_USERS / addSeconds;
    report(
      `SCIM provisioning, ${SCIM_USERS.toLocaleString('en')} users`,
      `${fmt(scimSeconds)} s, ${fmt(scimRate)} users/s at ${CONCURRENCY} in flight; POST /api/users/add in the same run ${fmt(addRate)} users/s (${ADDED_USERS.toLocaleString('en')} users; ${fmt(scimRate / addRate)}x)`,
    );

    // Grow the organisation to TOTAL users straight in SQLite, as a directory that had provisioned them.
    const present = SCIM_USERS + ADDED_USERS + 1;
    await db.run('BEGIN');
    for (let start = present; start < TOTAL; start += 400) {
      const values = [];
      const params = [];
      for (let i = start; i < Math.min(TOTAL, start + 400); i++) {
        values.push("(?, ?, NULL, ?, ?, 4, 'scim', ?)");
        params.push(orgId, `seeded${i}@directory.test`, `Given${i}`, `Family${i % 97}`, `ext-${i}`);
      }
      await db.run(
        `INSERT INTO "users" ("organisationId", "email", "passwordHash", "firstName", "lastName", "roleId", "managedBy", "externalId") VALUES ${values.join(', ')}`,
        params,
      );
    }
    await db.run('COMMIT');
    await db.run('ANALYZE');
    await db.close();

    const N = 200;
    const first = await timedGet(server.base, scim, '/scim/v2/Users?startIndex=1&count=100', N);
    if (first.body.totalResults < TOTAL) throw new Error(`only ${first.body.totalResults} users`);
    const byName = await timedGet(
      server.base,
      scim,
      `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "SCIM${Math.floor(SCIM_USERS / 2)}@Directory.test"`)}`,
      N,
    );
    const byExternal = await timedGet(
      server.base,
      scim,
      `/scim/v2/Users?filter=${encodeURIComponent(`externalId eq "ext-${TOTAL - 7}"`)}`,
      N,
    );
    if (byName.body.totalResults !== 1 || byExternal.body.totalResults !== 1) throw new Error('a lookup found no one');
    report(
      `SCIM filtered GET at ${first.body.totalResults.toLocaleString('en')} users`,
      `userName eq ${fmt(byName.p50, 2)} ms p50 (${fmt(byName.p50 / first.p50, 2)}x the first page), externalId eq ${fmt(byExternal.p50, 2)} ms (${fmt(byExternal.p50 / first.p50, 2)}x); first page of 100 ${fmt(first.p50, 2)} ms p50, ${fmt(first.p99, 2)} ms p99`,
    );
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
