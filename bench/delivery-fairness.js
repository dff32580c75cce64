#!/usr/bin/env node
/**
 * Another organisation's delivery latency while one organisation's twenty endpoints hang, on the BUILT server
 * (dist/main.js): organisation A has 20 webhook endpoints on a receiver that never answers and causes three events
 * (60 deliveries, each held until the 10 s answer limit); organisation B, with one webhook endpoint and one log
 * stream on a receiver answering 204, then adds a user, several times. Printed: the time from B's change to its
 * webhook and to its log-stream batch (the product's promise for log streams: within 10 s).
 *
 *   npm run build:server && node bench/delivery-fairness.js [--rounds 3] [--baseline <checkout>]
 *
 * `--baseline <checkout>` (or BENCH_BASELINE, as run-all.js passes it on): the same measurement, first, on another
 * build's `dist/` (a checkout of main built with `npm run build:server`), one round, each wait cut at `--cap` seconds
 * (75).
 */
const { createServer } = require('node:http');
const { join } = require('node:path');
const L = require('./lib');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROUNDS = Number(arg('rounds', 3));
const BASELINE = arg('baseline', process.env.BENCH_BASELINE);
const CAP_MS = Number(arg('cap', 75)) * 1000;
const PASSWORD = 'Bench-Fair-Pass-1';

/** The receiver: `/hang-*` never answers; `/b-hook` and `/b-stream` answer 204 and note when each request came. */
async function receiver() {
  const arrivals = [];
  const hanging = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url.startsWith('/hang-')) return hanging.push(res);
      arrivals.push({ path: req.url, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() });
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const close = () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    server.close();
  };
  return { base, arrivals, hanging, close };
}

async function call(base, auth, method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers: auth, body: body && JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Waits until `found()` answers, or `capMs` passes (null). */
async function waitFor(found, capMs) {
  const until = performance.now() + capMs;
  for (;;) {
    const hit = found();
    if (hit) return hit;
    if (performance.now() > until) return null;
    await L.sleep(20);
  }
}

/** One server of the given checkout's build: A's hanging endpoints, B's endpoint and stream, `rounds` of B's changes. */
async function measure(lib, rounds, capMs) {
  const rx = await receiver();
  const server = await lib.startServer({ ALLOW_PRIVATE_NETWORKS: 'true' });
  try {
    const db = L.sqlite(join(server.dataDir, 'app.sqlite'));
    const hash = await L.serverHash(PASSWORD);
    const admins = {};
    for (const code of ['FAIRA', 'FAIRB']) {
      const orgId = await L.seedOrganisation(db, code, 50);
      const email = `${code.toLowerCase()}.admin@bench.test`;
      await db.run(
        'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 2, 0)',
        [orgId, email, hash, code, 'Admin'],
      );
      admins[code] = email;
    }
    await db.close();
    const auth = {};
    for (const [code, email] of Object.entries(admins)) {
      const { accessToken } = await L.login(server.base, email, PASSWORD);
      auth[code] = { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` };
    }
    for (let i = 0; i < 20; i++)
      await call(server.base, auth.FAIRA, 'POST', '/api/webhooks', {
        url: `${rx.base}/hang-${i}`,
        events: ['user.created'],
      });
    await call(server.base, auth.FAIRB, 'POST', '/api/webhooks', {
      url: `${rx.base}/b-hook`,
      events: ['user.created'],
    });
    await call(server.base, auth.FAIRB, 'POST', '/api/log-streams', {
      type: 'http',
      url: `${rx.base}/b-stream`,
      token: 'bench-stream-token-0123456789',
    });

    for (let i = 0; i < 3; i++)
      await call(server.base, auth.FAIRA, 'POST', '/api/users/add', { userEmail: `a-${i}@fair.bench.test` });
    await waitFor(() => rx.hanging.length > 0, 10_000);

    const results = [];
    for (let round = 0; round < rounds; round++) {
      const email = `b-${round}@fair.bench.test`;
      const started = performance.now();
      await call(server.base, auth.FAIRB, 'POST', '/api/users/add', { userEmail: email });
      const seen = (path) => () => rx.arrivals.find((r) => r.path === path && r.body.includes(email));
      const [hook, stream] = await Promise.all([waitFor(seen('/b-hook'), capMs), waitFor(seen('/b-stream'), capMs)]);
      const ms = (r) => (r ? r.at - started : null);
      results.push({ hook: ms(hook), stream: ms(stream), hanging: rx.hanging.length });
      console.log(
        `  round ${round + 1}: webhook ${fmtMs(ms(hook), capMs)}, log stream ${fmtMs(ms(stream), capMs)} (A's requests held: ${rx.hanging.length})`,
      );
    }
    return results;
  } finally {
    await server.stop();
    rx.close();
  }
}

const fmtMs = (ms, capMs) => (ms === null ? `> ${(capMs / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(2)} s`);
const worst = (results, key) => (results.some((r) => r[key] === null) ? null : Math.max(...results.map((r) => r[key])));

async function main() {
  let baseline;
  if (BASELINE) {
    console.log(`Baseline (${BASELINE}):`);
    baseline = await measure(require(join(BASELINE, 'bench', 'lib')), 1, CAP_MS);
  }
  console.log('This build:');
  const results = await measure(L, ROUNDS, CAP_MS);
  const ok = results.every((r) => r.hook !== null && r.stream !== null && r.hook < 10_000 && r.stream < 10_000);
  const before = baseline
    ? `; the baseline build, same run: webhook ${fmtMs(baseline[0].hook, CAP_MS)}, log stream ${fmtMs(baseline[0].stream, CAP_MS)}`
    : '';
  L.report(
    "another organisation's delivery latency while one organisation's twenty endpoints hang",
    `webhook worst ${fmtMs(worst(results, 'hook'), CAP_MS)}, log stream worst ${fmtMs(worst(results, 'stream'), CAP_MS)} over ${ROUNDS} changes (60 deliveries of A held to the 10 s limit)${before}${ok ? '' : '; OVER 10 s'}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
