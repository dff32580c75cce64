#!/usr/bin/env node
/**
 * Reliability under crashes: N rounds of the built server killed with kill -9 at a random moment
 * while six clients write (announcements, beside transactions that fail and roll back), restarted on the
 * same SQLite file. Prints the writes acknowledged (201) and those missing after the restart; exits 1 if any
 * acknowledged write was lost.
 *
 *   npm run build:server && node bench/reliability.js [--rounds 10]
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { crashRounds } = require('../test/utils/servers/crash-harness.js');
const { report } = require('./lib');

const i = process.argv.indexOf('--rounds');
const ROUNDS = i > 0 ? Number(process.argv[i + 1]) : 10;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-reliability-'));
  try {
    const results = await crashRounds({ mainJs: join(__dirname, '..', 'dist', 'main.js'), dataDir, rounds: ROUNDS });
    for (const r of results)
      console.log(`round ${r.round}: ${r.acknowledged} writes acknowledged, ${r.missing.length} lost`);
    const acknowledged = results.reduce((n, r) => n + r.acknowledged, 0);
    const lost = results.reduce((n, r) => n + r.missing.length, 0);
    console.log(`reliability: ${ROUNDS} kill -9 rounds, ${acknowledged} writes acknowledged, ${lost} lost`);
    report(`acknowledged writes lost over ${ROUNDS} kill -9 rounds`, `${lost} lost of ${acknowledged} acknowledged`);
    if (lost > 0) process.exitCode = 1;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
