#!/usr/bin/env node
// `npm test`: runs every suite in turn, even after one fails, and ends with one line per suite and a total
// line `N passed, N failed` (counted from each runner's JSON report). Exits non-zero if anything failed.
//
//   node scripts/test-all.js                 the default suites
//   node scripts/test-all.js --with node22   the server suites on Node 22 LTS instead of this machine's Node (CI)
//   node scripts/test-all.js --only e2e,client
//
// Adding a suite is one line in SUITES: a name, the npm script that runs it, the runner whose report is
// read (jest, vitest, playwright, or report for our own scripts), optionally a group that only runs when asked for
// with --with, and `server: true` for a suite of the server's code. With the group node22 (CI) the server suites
// run once, on Node 22 LTS, the container image's runtime (scripts/with-node22.sh), instead of this machine's Node.
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const SUITES = [
  { name: 'unit', script: 'test:unit', runner: 'jest', server: true },
  { name: 'e2e', script: 'test:e2e', runner: 'jest', server: true },
  { name: 'client', script: 'test:client', runner: 'vitest' },
  { name: 'browser', script: 'test:browser', runner: 'playwright' },
  // On PostgreSQL and Redis: in the default run whenever TEST_DATABASE_URL and TEST_REDIS_URL are set (.ci/run sets them).
  { name: 'e2e (PostgreSQL)', script: 'test:e2e:pg', runner: 'jest', group: 'pg', server: true },
  { name: 'multi-instance', script: 'test:multi', runner: 'jest', group: 'pg', server: true },
  { name: 'image', script: 'test:image', runner: 'report', group: 'image' },
  { name: 'image (podman)', script: 'test:image:built', runner: 'report', group: 'image' },
];

/** How each runner is asked for a JSON report, and how its counts are read from it. */
const RUNNERS = {
  // Our own scripts (scripts/test-image.js): `--json-report FILE` writes {numPassedTests, numFailedTests}.
  report: {
    args: (file) => ['--json-report', file],
    count: (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests }),
  },
  jest: {
    args: (file) => ['--json', `--outputFile=${file}`],
    // A test file that fails to load has no failed test but one runtime error: count it too.
    count: (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0) }),
  },
  vitest: {
    args: (file) => ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    count: (r) => ({
      passed: r.numPassedTests,
      failed:
        r.numFailedTests +
        (r.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length,
    }),
  },
  playwright: {
    args: () => ['--reporter=list,json'],
    env: (file) => ({ PLAYWRIGHT_JSON_OUTPUT_NAME: file }),
    count: (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected + (r.errors ?? []).length }),
  },
};

function parseArgs(argv) {
  const opts = { with: [], only: null };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = () => (inline ?? argv[++i] ?? '').split(',').filter(Boolean);
    if (flag === '--with') opts.with.push(...value());
    else if (flag === '--only') opts.only = value();
    else throw new Error(`unknown argument ${argv[i]} (use --with GROUP or --only SUITE,...)`);
  }
  return opts;
}

function selected(opts) {
  const onNode = (suites) =>
    opts.with.includes('node22')
      ? suites.map((s) => (s.server ? { ...s, name: `${s.name} (Node 22)`, node22: true } : s))
      : suites;
  if (opts.only) {
    const unknown = opts.only.filter((n) => !SUITES.some((s) => s.name === n || s.script === n));
    if (unknown.length)
      throw new Error(`unknown suite ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`);
    return onNode(SUITES.filter((s) => opts.only.includes(s.name) || opts.only.includes(s.script)));
  }
  const groups = [...opts.with];
  if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) groups.push('pg');
  else if (!groups.includes('pg'))
    console.log(
      'PostgreSQL and multi-instance suites not run: set TEST_DATABASE_URL and TEST_REDIS_URL (README, "Tests").',
    );
  return onNode(SUITES.filter((s) => !s.group || groups.includes(s.group)));
}

function run(suite, dir) {
  const runner = RUNNERS[suite.runner];
  const report = join(dir, `${suite.script.replace(/\W+/g, '-')}.json`);
  const started = Date.now();
  const npmRun = ['npm', 'run', suite.script, '--', ...runner.args(report)];
  const [command, ...args] = suite.node22 ? ['bash', 'scripts/with-node22.sh', ...npmRun] : npmRun;
  console.log(`\n=== ${suite.name}: ${[command, ...args.slice(0, suite.node22 ? 4 : 2)].join(' ')}\n`);
  const child = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, ...(runner.env ? runner.env(report) : {}) },
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  let counts;
  try {
    counts = runner.count(JSON.parse(readFileSync(report, 'utf8')));
  } catch {
    counts = { passed: 0, failed: 0, note: 'no report' };
  }
  const exit = child.status ?? 1;
  // A suite that exits non-zero without a failed test (a build error, a crash) still counts as one failure.
  if (exit !== 0 && counts.failed === 0) counts = { ...counts, failed: 1, note: `${counts.note ?? 'exit'} ${exit}` };
  return { ...suite, ...counts, exit, seconds };
}

function main() {
  const suites = selected(parseArgs(process.argv.slice(2)));
  const dir = mkdtempSync(join(tmpdir(), 'tax-portal-test-reports-'));
  const results = suites.map((s) => run(s, dir));
  rmSync(dir, { recursive: true, force: true });

  console.log('\n=== Summary');
  for (const r of results) {
    const note = r.note ? ` (${r.note})` : '';
    console.log(
      `${r.name.padEnd(27)} ${r.exit === 0 ? 'ok  ' : 'FAIL'} ${r.passed} passed, ${r.failed} failed in ${r.seconds} s${note}`,
    );
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || results.some((r) => r.exit !== 0) ? 1 : 0;
}

main();
