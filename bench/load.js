#!/usr/bin/env node
/**
 * Load: the built server on a fresh SQLite file, 200 users of one organisation each signed in
 * from its own client, then 200 clients for 60 s in closed loops of mixed calls: 70 % reads (current
 * user, a user-list page, the notification list) and 30 % writes (own profile update). Prints
 * throughput, p50/p99 latency and errors (5xx, network); 4xx and throttled answers (429) separately.
 * The server's rate limits apply as configured (no RATE_LIMIT_SCALE): each user is one person.
 *
 *   npm run build:server && node bench/load.js [--clients 200] [--seconds 60]
 */
const { join } = require('node:path');
const { startServer, sqlite, serverHash, seedOrganisation, login, percentile, fmt, report } = require('./lib');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CLIENTS = arg('clients', 200);
const SECONDS = arg('seconds', 60);
const PASSWORD = 'Load-Bench-Pass-1';

async function main() {
  const server = await startServer({ RATE_LIMIT_SCALE: '1' });
  try {
    const db = sqlite(join(server.dataDir, 'app.sqlite'));
    const orgId = await seedOrganisation(db, 'LOAD', CLIENTS);
    const hash = await serverHash(PASSWORD);
    const emails = Array.from({ length: CLIENTS }, (_, i) => `load${i}@load.test`);
    await db.run('BEGIN');
    for (const [i, email] of emails.entries()) {
      await db.run(
        'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, ?, 0)',
        [orgId, email, hash, 'Load', `User ${i}`, i % 10 === 0 ? 2 : 4],
      );
    }
    await db.run('COMMIT');
    await db.close();
    const tokens = [];
    for (let i = 0; i < emails.length; i += 10)
      tokens.push(
        ...(await Promise.all(emails.slice(i, i + 10).map((e) => login(server.base, e, PASSWORD)))).map(
          (s) => s.accessToken,
        ),
      );

    const latencies = [];
    const counts = { ok: 0, throttled: 0, clientErrors: 0, serverErrors: 0, network: 0, reads: 0, writes: 0 };
    const until = Date.now() + SECONDS * 1000;
    const client = async (c) => {
      const headers = { authorization: `Bearer ${tokens[c]}`, 'content-type': 'application/json' };
      for (let n = 0; Date.now() < until; n++) {
        const pick = (c + n) % 10;
        const write = pick < 3;
        counts[write ? 'writes' : 'reads']++;
        const path = write
          ? '/api/users/updateUser'
          : pick < 6
            ? '/api/users/current'
            : pick < 8
              ? '/api/users?pageSize=50'
              : '/api/notifications';
        const start = process.hrtime.bigint();
        try {
          const res = await fetch(
            `${server.base}${path}`,
            write
              ? { method: 'PUT', headers, body: JSON.stringify({ jobTitle: `Job ${n}`, location: `Desk ${c}` }) }
              : { headers },
          );
          await res.arrayBuffer();
          latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
          if (res.status === 429) counts.throttled++;
          else if (res.status >= 500) counts.serverErrors++;
          else if (res.status >= 400) counts.clientErrors++;
          else counts.ok++;
        } catch {
          counts.network++;
        }
      }
    };
    const started = Date.now();
    await Promise.all(tokens.map((_, c) => client(c)));
    const elapsed = (Date.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const errors = counts.serverErrors + counts.network;
    const line =
      `${fmt((latencies.length + counts.network) / elapsed)} req/s (${counts.reads} reads, ${counts.writes} writes), ` +
      `p50 ${fmt(percentile(latencies, 50))} ms, p99 ${fmt(percentile(latencies, 99))} ms, ` +
      `${errors} errors (5xx ${counts.serverErrors}, network ${counts.network}), 4xx ${counts.clientErrors}, throttled ${counts.throttled}`;
    console.log(`load, ${CLIENTS} clients for ${fmt(elapsed)} s: ${line}`);
    report(`load, ${CLIENTS} clients for ${SECONDS} s, 70 % reads and 30 % writes`, line);
    if (errors > 0) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
