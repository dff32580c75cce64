#!/usr/bin/env node
// Fails with a clear message unless every variable named on the command line is set (for suites that need a service).
const missing = process.argv.slice(2).filter((name) => !process.env[name]);
if (missing.length) {
  console.error(`This suite needs ${missing.join(' and ')} (see README, "Tests": PostgreSQL and Redis).`);
  process.exit(1);
}
