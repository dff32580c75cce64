#!/usr/bin/env node
// Prints the JavaScript the login page downloads (the entry chunk and its static imports, gzipped),
// against the budget of 250 KB. Reads client/dist/.vite/manifest.json: run `npm run build:client` first.
const { readFileSync, existsSync } = require('node:fs');
const { gzipSync } = require('node:zlib');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'client', 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error('No client build: run `npm run build:client` first.');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entry = Object.entries(manifest).find(([, c]) => c.isEntry);
const seen = new Set();
(function walk(key) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) walk(dep);
})(entry[0]);

let raw = 0;
let gz = 0;
const rows = [];
for (const key of seen) {
  const buf = readFileSync(join(dist, manifest[key].file));
  const g = gzipSync(buf, { level: 9 }).length;
  raw += buf.length;
  gz += g;
  rows.push([manifest[key].file, (g / 1024).toFixed(1)]);
}
const lazy = Object.values(manifest).filter((c) => c.isDynamicEntry).length;
for (const [file, kb] of rows) console.log(`  ${file.padEnd(48)} ${kb.padStart(7)} KB gzip`);
console.log(`login page JavaScript: ${(gz / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw) in ${seen.size} files; budget 250 KB; ${lazy} route chunks load later`);
if (gz / 1024 > 250) process.exitCode = 1;
