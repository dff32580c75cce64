#!/usr/bin/env node
/**
 * Benchmark of privacy (docs/privacy.md), on the BUILT server (dist/main.js), SQLite:
 *
 * 1. "Download my data" for an account with --events audit events (default 100,000) by it, and for one with a
 *    tenth as many: the time to the last byte, the bytes, and the server's peak anonymous RSS while it streams
 *    (sampled every 20 ms; without the SQLite file's memory-mapped pages, which a read of the trail maps in) beside
 *    its value before.
 * 2. A retention pass over --old events (default 1,000,000) past their organisation's 30 days, beside --writers
 *    clients (default 8) changing roles (each an audited write): their p99 before the pass and during it. The pass
 *    is the server's own daily job, whose first run comes a minute after start; the events are seeded meanwhile.
 *
 *   npm run build:server && node bench/privacy.js [--events 100000] [--old 1000000] [--writers 8]
 *   (--events 0 or --old 0 leaves that part out; --heap 96 caps the server's V8 old space at 96 MiB)
 */
const { join } = require('node:path');
const { percentile, report, serverHash, sleep, sqlite, startServer } = require('./lib');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const EVENTS = arg('events', 100_000);
const OLD = arg('old', 1_000_000);
const WRITERS = arg('writers', 8);
/** --heap <MiB>: the server's V8 old space capped there, to show the export's memory is garbage a GC takes back. */
const HEAP = arg('heap', 0);
const PASSWORD = 'Bench-Pass-12345';
const MiB = 1024 * 1024;

async function seedAccount(db, code, retentionDays) {
  const org = await db.run(
    `INSERT INTO "organisations" ("code", "name", "allowedUsersNumber", "maxConcurrentUsers", "maxPortfolios", "applications", "auditRetentionDays") VALUES (?, ?, 1000, 1000, 10, '["TAX_MANAGER"]', ?)`,
    [code, `${code} organisation`, retentionDays],
  );
  const hash = await serverHash(PASSWORD);
  const admin = await db.run(
    `INSERT INTO "users" ("organisationId", "email", "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES (?, ?, ?, 'Bench', 'Admin', 2, 0)`,
    [org, `admin@${code.toLowerCase()}.test`, hash],
  );
  const target = await db.run(
    `INSERT INTO "users" ("organisationId", "email", "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES (?, ?, NULL, 'Bench', 'Target', 6, 0)`,
    [org, `target@${code.toLowerCase()}.test`],
  );
  return { org, admin, target, email: `admin@${code.toLowerCase()}.test` };
}

/** `n` audit events of `org` by `actor`, one every `step` seconds back from `daysAgo` days ago. */
function seedEvents(db, org, actor, n, daysAgo, step) {
  return db.run(
    `INSERT INTO audit_events (occurredAt, type, organisationId, actorKind, actorId, actorEmail, actorOrganisationId, targetId, targetEmail, targetOrganisationId, ip, userAgent, summary, changes)
     WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?)
     SELECT strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || ? || ' days', '-' || (i * ?) || ' seconds'),
            'ROLE_CHANGED', ?, 'user', ?, 'admin@bench.test', ?, 200000 + i % 5000, 'target' || (i % 5000) || '@bench.test', ?,
            '10.0.' || (i % 200) || '.' || (i % 250), 'Mozilla/5.0 (Bench)', 'Roles of target' || (i % 5000) || '@bench.test: Viewer → Analyst',
            '{"roles":{"from":"Viewer","to":"Analyst"}}'
     FROM s`,
    [n, daysAgo, step, org, actor, org, org],
  );
}

async function login(base, email) {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password: PASSWORD, acceptToS: true }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()).accessToken;
}

/** One export: seconds to the last byte, bytes, events, and the server's RSS before and at its peak meanwhile. */
/** The server's anonymous resident memory (heap, buffers): its RSS without the SQLite file's memory-mapped pages. */
function anonRss(server) {
  const status = require('node:fs').readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/RssAnon:\s+(\d+)\s+kB/.exec(status)[1]) * 1024;
}

async function timedExport(server, token) {
  const before = anonRss(server);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, anonRss(server))), 20);
  const start = process.hrtime.bigint();
  const res = await fetch(`${server.base}/api/me/data-export`, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`export failed: ${res.status} ${await res.text()}`);
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  clearInterval(sampler);
  const doc = JSON.parse(text);
  return { ms, bytes: text.length, n: doc.auditEventsByMe.length + doc.auditEventsAboutMe.length, before, peak };
}

/**
 * Part 1: the export of an account with EVENTS audit events, beside one with a tenth as many in the same server:
 * memory that stays flat peaks alike for both.
 */
async function exportBench() {
  const server = await startServer(HEAP ? { NODE_OPTIONS: `--max-old-space-size=${HEAP}` } : {});
  try {
    const db = sqlite(join(server.dataDir, 'app.sqlite'));
    const small = await seedAccount(db, 'SMALL', null);
    const large = await seedAccount(db, 'LARGE', null);
    await seedEvents(db, small.org, small.admin, Math.round(EVENTS / 10), 1, 1);
    await seedEvents(db, large.org, large.admin, EVENTS, 1, 1);
    await db.close();
    const a = await timedExport(server, await login(server.base, small.email));
    const b = await timedExport(server, await login(server.base, large.email));
    if (b.n < EVENTS) throw new Error(`the export held ${b.n} events of ${EVENTS}`);
    const line = (r) =>
      `${(r.ms / 1000).toFixed(2)} s for ${r.n} events (${(r.bytes / MiB).toFixed(1)} MiB), server anonymous RSS ${(r.before / MiB).toFixed(0)} → peak ${(r.peak / MiB).toFixed(0)} MiB`;
    const capped = HEAP ? ` (V8 old space capped at ${HEAP} MiB)` : '';
    report(
      `my data export at ${EVENTS} audit events`,
      `${line(b)}; a tenth as many in the same server: ${line(a)}${capped}`,
    );
  } finally {
    await server.stop();
  }
}

/** Part 2: the retention pass over OLD events beside WRITERS clients. */
async function retentionBench() {
  const server = await startServer({ RATE_LIMIT_SCALE: '1000' });
  const startedAt = Date.now();
  try {
    const db = sqlite(join(server.dataDir, 'app.sqlite'));
    const a = await seedAccount(db, 'RETAIN', 30);
    // 400 days old: past the organisation's 30 days; one every 10 s back from there.
    await seedEvents(db, a.org, a.admin, OLD, 400, 10);
    const seededIn = Date.now() - startedAt;
    const token = await login(server.base, a.email);
    const old = async () =>
      (
        await db.all('SELECT COUNT(*) AS n FROM audit_events WHERE organisationId = ? AND occurredAt < ?', [
          a.org,
          new Date(Date.now() - 300 * 86_400_000).toISOString().replace('T', ' ').replace('Z', ''),
        ])
      )[0].n;
    const samples = [];
    let stop = false;
    const writer = async (k) => {
      for (let i = 0; !stop; i++) {
        const t0 = process.hrtime.bigint();
        const res = await fetch(`${server.base}/api/users/updateRole`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ userId: a.target, newUserRoleIds: [(i + k) % 2 ? 6 : 7] }),
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`updateRole failed: ${res.status}`);
        samples.push({ at: Date.now(), ms: Number(process.hrtime.bigint() - t0) / 1e6 });
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, k) => writer(k));
    // The pass starts when the old events start to go, and ends when none is left.
    let passStart = null;
    let passEnd = null;
    const initial = await old();
    for (;;) {
      await sleep(250);
      const left = await old();
      if (passStart === null && left < initial) passStart = Date.now() - 250;
      if (passStart !== null && left === 0) {
        passEnd = Date.now();
        break;
      }
      if (Date.now() - startedAt > 30 * 60_000) throw new Error('the retention pass did not finish within 30 minutes');
    }
    stop = true;
    await Promise.all(writers);
    await db.close();
    const p99 = (xs) =>
      percentile(
        [...xs].sort((x, y) => x - y),
        99,
      );
    const p50 = (xs) =>
      percentile(
        [...xs].sort((x, y) => x - y),
        50,
      );
    const before = samples.filter((s) => s.at < passStart).map((s) => s.ms);
    const during = samples.filter((s) => s.at >= passStart && s.at <= passEnd).map((s) => s.ms);
    const value = `${initial} events deleted in ${((passEnd - passStart) / 1000).toFixed(1)} s (500 a statement, each followed by a pause as long); ${WRITERS} writers changing roles: before p50 ${p50(before).toFixed(1)} ms, p99 ${p99(before).toFixed(1)} ms (${before.length} calls); during p50 ${p50(during).toFixed(1)} ms, p99 ${p99(during).toFixed(1)} ms (${during.length} calls); seeded in ${(seededIn / 1000).toFixed(0)} s`;
    report(`retention pass over ${OLD} audit events beside writers`, value);
  } finally {
    await server.stop();
  }
}

(async () => {
  if (EVENTS > 0) await exportBench();
  if (OLD > 0) await retentionBench();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
