#!/usr/bin/env node
/**
 * Benchmark of the insights page, on the BUILT server (dist/main.js): an organisation with 1,000,000 audit events
 * over a year and the year's counts (a row per day, failure reasons per day), a second organisation beside it; then
 * GET /api/insights for the whole year (and 30 and 90 days), one call at a time. Fails when p99 >= 100 ms.
 * The figures come from the counts, never from the trail: the trail is seeded so that the row stands beside
 * the audit page's (bench/audit.js) at the same size.
 *
 *   npm run build:server && node bench/insights.js [--events 1000000] [--requests 300]
 */
const { report, startServer, sqlite, login, percentile } = require('./lib');
const { join } = require('node:path');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const EVENTS = arg('events', 1_000_000);
const REQUESTS = arg('requests', 300);
const WARMUP = 20;
const BUDGET_P99_MS = 100;
const PASSWORD = 'Bench-Pass-12345';
const REASONS = ['WRONG_PASSWORD', 'WRONG_MFA_CODE', 'LOCKED', 'SSO_REFUSED'];

const day = (d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);

async function seed(file) {
  const argon2 = require('argon2');
  const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
  const db = sqlite(file);
  const orgs = [];
  for (const code of ['BENCH', 'OTHER']) {
    orgs.push(
      await db.run(
        `INSERT INTO organisations (code, name, allowedUsersNumber, maxConcurrentUsers, maxPortfolios, applications) VALUES (?, ?, 5000, 5000, 10, '["TAX_MANAGER"]')`,
        [code, `${code} organisation`],
      ),
    );
  }
  const [org, other] = orgs;
  // 2,000 members, a third with a second factor; the site admin signs in.
  await db.run(
    `INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced, isMFAEnabled)
     WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000)
     SELECT ?, 'member' || i || '@bench.test', NULL, 'Member', 'M' || i, 4, 0, CASE WHEN i % 3 = 0 THEN 1 ELSE 0 END FROM s`,
    [org],
  );
  await db.run(
    'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 2, 0)',
    [org, 'bench.admin@bench.test', hash, 'Bench', 'Admin'],
  );
  for (const [o, n, step] of [
    [org, EVENTS, Math.max(1, Math.floor((365 * 86_400) / EVENTS))],
    [other, Math.round(EVENTS / 5), 150],
  ]) {
    await db.run(
      `INSERT INTO audit_events (occurredAt, type, organisationId, actorKind, actorId, actorEmail, actorOrganisationId, targetId, targetEmail, targetOrganisationId, ip, userAgent, summary, changes)
       WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?)
       SELECT strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || (i * ?) || ' seconds'),
              CASE i % 10 WHEN 2 THEN 'SIGN_IN_FAILED' WHEN 3 THEN 'LOGOUT' ELSE 'SIGN_IN_SUCCEEDED' END,
              ?, 'user', 100000 + i % 400, 'actor' || (i % 400) || '@bench.test', ?, 200000 + i % 5000,
              'target' || (i % 5000) || '@bench.test', ?, '10.0.0.1', 'Mozilla/5.0 (Bench)', 'Event ' || i, NULL
       FROM s`,
      [n, step, o, o, o],
    );
  }
  // The counts the server would have kept for those events: a row per day of the year, four reasons per day.
  for (const o of orgs) {
    for (let d = 0; d < 366; d++) {
      await db.run(
        `INSERT INTO insights_daily (organisationId, day, succeededPassword, succeededPasskey, succeededSso, failedPassword, failedPasskey, failedSso, peakConcurrent, mfaEnrolled, mfaTotal)
         VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 2001)`,
        [o, day(d), 1800 + (d % 90), 300 + (d % 40), 200 + (d % 30), 250 + (d % 20), 20, 150 + (d % 50), 600 + d],
      );
      for (const reason of REASONS)
        await db.run('INSERT INTO insights_failures (organisationId, day, reason, n) VALUES (?, ?, ?, ?)', [
          o,
          day(d),
          reason,
          10 + (d % 7),
        ]);
    }
  }
  await db.run('ANALYZE');
  await db.close();
  return org;
}

async function main() {
  const server = await startServer({ RATE_LIMIT_SCALE: '100' });
  try {
    const file = join(server.dataDir, 'app.sqlite');
    const started = Date.now();
    await seed(file);
    console.log(
      `Seeded ${EVENTS} audit events and a year of counts in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    const { accessToken } = await login(server.base, 'bench.admin@bench.test', PASSWORD);
    const periods = [365, 365, 90, 30];
    const times = [];
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const days = periods[i % periods.length];
      const url = `${server.base}/api/insights?from=${day(days)}&to=${day(0)}`;
      const t = process.hrtime.bigint();
      const res = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}` } });
      const body = await res.json();
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (!res.ok) throw new Error(`GET /api/insights: ${res.status} ${JSON.stringify(body)}`);
      if (i >= WARMUP) times.push(ms);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    console.log(
      `GET /api/insights (a year, 90 or 30 days), ${REQUESTS} calls: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    );
    report(
      `insights page at ${EVENTS} audit events (\`bench/insights.js\`)`,
      `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (a year, 90 or 30 days of figures)`,
    );
    if (p99 >= BUDGET_P99_MS) {
      console.error(`p99 ${p99.toFixed(1)} ms is over the ${BUDGET_P99_MS} ms budget`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
