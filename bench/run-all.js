#!/usr/bin/env node
/**
 * `npm run bench` (after `npm run build`): runs every benchmark against the built server, each
 * beside a bare server answering the same bytes in the same run where the table names one, prints the
 * table, and writes it into bench/README.md between the bench markers. Takes a few minutes.
 *
 * Figures on a shared machine are noisy: compare the ratios measured in the same run, and repeat.
 */
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, writeFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const README = join(ROOT, 'bench', 'README.md');
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** The issue's table, in its order: the row a benchmark reports (by prefix) and the target. */
const ROWS = [
  [
    'password logins/s',
    'hot-path.js',
    "≥ 0.85 of raw argon2 verifies with as many hashes in flight, the bench client's CPU counted apart",
  ],
  [
    'refreshes/s',
    'hot-path.js',
    '≥ 600/s (the issue measured it beside a bare node:http of about 14,300/s: 0.042 of it)',
  ],
  ['GET /api/users/current', 'hot-path.js', '≥ 0.12 of bare node:http'],
  ['user list, 50-row page', 'user-list.js', '≥ 0.05 of bare node:http, p99 ≤ 10× p50'],
  ['text search at', 'user-list.js', 'within 2× of the first page'],
  ['text search on PostgreSQL', 'user-list.js', 'within 2× of its first page (needs TEST_DATABASE_URL)'],
  ['/logIn JavaScript on the wire', 'login-bundle.js', '≤ 100 KB'],
  [
    'Lighthouse mobile, /logIn',
    'lighthouse.js',
    'performance ≥ 95 (median of 3), LCP ≤ 1.5 s, TBT ≤ 150 ms, best practices 100, no console error',
  ],
  ['socket memory per connection', 'notifications.js', '≤ 10 KiB RSS at 5k and 10k (socket.io-client, no forced GC)'],
  [
    'notification fan-out',
    'notifications.js',
    'p99 ≤ 250 ms at 10k, within 1.1× the bare `ws` broadcast of the same rounds',
  ],
  // Durability, load, and sign-in timing that reveals no account.
  ['acknowledged writes lost', 'reliability.js', '0'],
  ['load, ', 'load.js', 'no 5xx, no network errors'],
  ['POST /auth/login, wrong password', 'login-timing.js', 'ratio within 0.75–1.33'],
  ['POST /auth/forgot-password', 'login-timing.js', 'ratio within 0.75–1.33'],
  // The audit trail.
  ['audit recording cost', 'audit.js', 'sign-in and role change within 10 % of recording off'],
  ['audit page at', 'audit.js', 'p99 < 50 ms'],
  ['insights page at', 'insights.js', "p99 < 100 ms, beside the audit page's row"],
  // Privacy: a person's own data, and retention beside writers.
  ['my data export at', 'privacy.js', "flat memory: the peak beside a tenth as many events' in the same server"],
  ['retention pass over', 'privacy.js', "reported: writers' p50 and p99 before and during the pass"],
  // Directory provisioning.
  ['SCIM provisioning,', 'scim.js', 'rate reported beside POST /api/users/add in the same run'],
  ['SCIM filtered GET at', 'scim.js', 'within 2× of the first page'],
  // Webhooks.
  ['webhook deliveries/s', 'webhooks.js', 'reported; every delivery once'],
  ['outbox cost on POST /api/users/add', 'webhooks.js', 'within the noise of the same run (alternating servers)'],
  [
    "another organisation's delivery latency",
    'delivery-fairness.js',
    'webhook and log stream each within 10 s (log streams: product rules §8)',
  ],
  // Several instances on PostgreSQL and Redis (needs TEST_DATABASE_URL and TEST_REDIS_URL).
  ['OIDC code exchanges/s', 'oidc-token.js', "reported beside the portal's POST /refresh and bare node:http, same run"],
  ['OIDC refreshes/s', 'oidc-token.js', "reported beside the portal's POST /refresh and bare node:http, same run"],
  ['notification fan-out across two instances', 'scale-out.js', 'every socket reached, p99 within a second'],
  ['user list on PostgreSQL', 'scale-out.js', 'p99 < 50 ms, as on SQLite'],
  [
    'rolling restart of two instances',
    'rolling-restart.js',
    'no read failed after its retries, no acknowledged write lost, every socket back within 5 s',
  ],
];

const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
const results = join(dir, 'results.jsonl');
writeFileSync(results, '');
const scripts = [...new Set(ROWS.map((r) => r[1]))];
const only = process.argv.slice(2);
let failed = false;
for (const script of scripts) {
  if (only.length && !only.some((o) => script.includes(o))) continue;
  console.log(`\n== ${script}`);
  try {
    // 10,000 sockets need as many descriptors in the server and in the load generator: raise the soft
    // limit for the child (up to the hard limit) where the shell allows it.
    const cmd = `ulimit -n $(ulimit -Hn) 2>/dev/null; exec "${process.execPath}" "${join(__dirname, script)}"`;
    execFileSync('/bin/sh', ['-c', cmd], { stdio: 'inherit', env: { ...process.env, BENCH_RESULTS: results } });
  } catch {
    failed = true;
    console.error(`${script} failed`);
  }
}
const reported = readFileSync(results, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
rmSync(dir, { recursive: true, force: true });

const date = new Date().toISOString().slice(0, 10);
const ran = new Set(scripts.filter((script) => !only.length || only.some((o) => script.includes(o))));
// Rows of the benchmarks not run this time are kept as bench/README.md has them (`node bench/run-all.js load` refreshes one).
const previous = (() => {
  const readme = readFileSync(README, 'utf8');
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  return a >= 0 && b > a
    ? readme
        .slice(a, b)
        .split('\n')
        .filter((l) => l.startsWith('| ') && !l.startsWith('| what') && !l.startsWith('| ---'))
    : [];
})();
const lines = [
  `Last \`npm run bench\`: ${date}${only.length ? ` (${[...ran].join(', ')}; the other rows from earlier runs)` : ''}, ${require('node:os').cpus().length} cores, load average ${require('node:os').loadavg()[0].toFixed(1)} at the end (shared machine: compare the ratios, measured in the same run).`,
  '',
  '| what | figure | target |',
  '| --- | --- | --- |',
];
for (const [prefix, script, target] of ROWS) {
  if (!ran.has(script)) {
    const kept = previous.filter((l) => l.startsWith(`| ${prefix}`) && l.includes(`(\`bench/${script}\`)`));
    lines.push(...(kept.length ? kept : [`| ${prefix} (\`bench/${script}\`) | not run | ${target} |`]));
    continue;
  }
  // A row belongs to its own script: scale-out.js's "notification fan-out across two instances" is not
  // notifications.js's "notification fan-out".
  const hit = reported.filter((r) => r.script === script && r.row.startsWith(prefix));
  if (hit.length === 0) lines.push(`| ${prefix} (\`bench/${script}\`) | not run | ${target} |`);
  for (const r of hit) {
    const named = r.row.includes(`\`bench/${script}\``) ? r.row : `${r.row} (\`bench/${script}\`)`;
    lines.push(`| ${named} | ${r.value.replace(/\|/g, '\\|')} | ${target} |`);
  }
}
const table = lines.join('\n');
console.log(`\n${table}\n`);

{
  const readme = readFileSync(README, 'utf8');
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a >= 0 && b > a) {
    writeFileSync(README, `${readme.slice(0, a + START.length)}\n${table}\n${readme.slice(b)}`);
    console.log('bench/README.md benchmark table updated.');
  } else console.error(`bench/README.md has no ${START} … ${END} markers: table not written.`);
}
if (failed) process.exitCode = 1;
