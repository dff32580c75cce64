#!/usr/bin/env node
/**
 * What the measured sockets keep, from the two heap snapshots `BENCH_HEAP_SNAPSHOT=<dir> node bench/notifications.js`
 * writes (before and after them): the objects' own sizes summed by kind and constructor, the difference divided by
 * the number of sockets, largest first.
 *
 *   node bench/heap-account.js <dir> [sockets, default 5000] [rows, default 40]
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

function totals(file) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, 'utf8'));
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const [TYPE, NAME, SIZE] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKind = new Map();
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + TYPE]];
    // Strings and numbers by kind only; objects, closures, arrays and native objects by their constructor's name.
    const name = ['string', 'concatenated string', 'sliced string', 'number', 'hidden', 'code'].includes(type)
      ? ''
      : strings[nodes[i + NAME]].slice(0, 60);
    const key = `${type} ${name}`.trim();
    const entry = byKind.get(key) ?? { size: 0, count: 0 };
    entry.size += nodes[i + SIZE];
    entry.count++;
    byKind.set(key, entry);
  }
  return byKind;
}

const [dir, sockets = '5000', rows = '40'] = process.argv.slice(2);
const n = Number(sockets);
const before = totals(join(dir, 'before.heapsnapshot'));
const after = totals(join(dir, 'after.heapsnapshot'));
const diff = [...after].map(([key, a]) => {
  const b = before.get(key) ?? { size: 0, count: 0 };
  return { key, bytes: (a.size - b.size) / n, count: (a.count - b.count) / n };
});
const total = diff.reduce((sum, d) => sum + d.bytes, 0);
console.log(`heap kept per socket: ${(total / 1024).toFixed(2)} KiB (${n} sockets)`);
for (const d of diff.sort((x, y) => y.bytes - x.bytes).slice(0, Number(rows)))
  console.log(`${d.bytes.toFixed(0).padStart(6)} B  ${d.count.toFixed(2).padStart(6)} per socket  ${d.key}`);
