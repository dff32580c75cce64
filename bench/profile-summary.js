#!/usr/bin/env node
/**
 * Summarises a V8 CPU profile (self and inclusive time per function, idle left out): how the hot
 * paths were profiled. Any bench writes the server's profile with BENCH_PROFILE=<dir>:
 *
 *   BENCH_PROFILE=/tmp/prof node bench/hot-path.js && node bench/profile-summary.js /tmp/prof/*.cpuprofile
 *
 * SKIP_MS=<ms> leaves out the start of the profile (start-up, seeding).
 *
 * Not run by run-all.js (its name is not in the table).
 */
const p = JSON.parse(require('fs').readFileSync(process.argv[2]));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const dt = p.timeDeltas;
const counts = new Map();
// SKIP_MS=<ms>: leave out the first milliseconds of the profile (the server's start-up and the seeding).
const skip = Number(process.env.SKIP_MS ?? 0) * 1000;
let at = 0;
p.samples.forEach((s, i) => {
  at += dt[i];
  if (at >= skip) counts.set(s, (counts.get(s) || 0) + dt[i]);
});
const parent = new Map();
for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
const selfBy = new Map(),
  incl = new Map();
let idle = 0;
for (const [id, t] of counts) {
  const n = byId.get(id);
  const cf = n.callFrame;
  if (cf.functionName === '(idle)') {
    idle += t;
    continue;
  }
  const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-3).join('/')}:${cf.lineNumber}`;
  selfBy.set(key, (selfBy.get(key) || 0) + t);
  const seen = new Set();
  let cur = id;
  while (cur !== undefined) {
    const c = byId.get(cur).callFrame;
    const k = `${c.functionName || '(anon)'} ${c.url.split('/').slice(-3).join('/')}:${c.lineNumber}`;
    if (!seen.has(k)) {
      seen.add(k);
      incl.set(k, (incl.get(k) || 0) + t);
    }
    cur = parent.get(cur);
  }
}
const counted = [...counts.values()].reduce((a, b) => a + b, 0);
const busy = counted - idle;
console.log('busy ms', (busy / 1000).toFixed(0), 'idle', (idle / 1000).toFixed(0));
const show = (m, title, n) => {
  console.log('--', title);
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .forEach(([k, t]) => console.log(((100 * t) / busy).toFixed(1).padStart(5), '%', k));
};
show(selfBy, 'self', 35);
show(incl, 'inclusive', Number(process.env.TOP ?? 45));
