#!/usr/bin/env node
// Runs every benchmark in bench/ (each prints its own figures). `npm run bench` builds first.
const { readdirSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.js') && f !== 'run-all.js').sort()) {
  console.log(`\n== ${file}`);
  try {
    execFileSync(process.execPath, [join(__dirname, file)], { stdio: 'inherit' });
  } catch {
    process.exitCode = 1;
  }
}
