#!/usr/bin/env node
/**
 * Two builds of the server side by side, loaded in alternating short slices: how a change moves the
 * refreshes (or GET /api/users/current) per second on a machine whose own speed swings by half within minutes.
 * Both servers see the same moments of the machine, so the ratio holds where a single figure does not (two
 * runs of one build: B/A 1.000 and 1.019). One build beside itself reads 1.01–1.02 in B's favour (sign-ins and
 * refreshes, 2026-12-05, whichever server takes the first slice of a round): read a change of a few per cent both
 * ways, its build as B and then as A.
 *
 *   git worktree add /tmp/base main && ln -s "$PWD/node_modules" /tmp/base/node_modules \
 *     && (cd /tmp/base && npm run build)
 *   npm run build && A_ROOT=/tmp/base node bench/ab.js
 *
 * A_ROOT / B_ROOT: the checkouts whose `dist/` (and `bench/lib.js`) serve as A and B (this one by default).
 * A / B: extra environment of each server, as JSON; A_NODE_ARGS / B_NODE_ARGS: options of its node (space-separated,
 * e.g. V8 heap flags). AB_MODE=current: signed-in GETs instead of refreshes;
 * AB_MODE=login: password sign-ins, each from the browser the account signed in with before (its browser cookie, as a
 * returning person's); AB_NEW_BROWSER=1: from a browser never seen (no cookie: the new-browser e-mail's path).
 * AB_ROUNDS (40) slices of AB_SLICE seconds (0.25) each.
 *
 * Not run by run-all.js (its name is not in the table).
 */
const L = require('./lib');

const PASSWORD = 'Bench-Pass-12345';
const CLIENTS = 16;
const ROUNDS = Number(process.env.AB_ROUNDS ?? 40);
const SLICE = Number(process.env.AB_SLICE ?? 0.25);
const MODE = process.env.AB_MODE ?? 'refresh';

const libAt = (root) => (root ? require(`${root}/bench/lib`) : L);

/** One server of the pair: seeded with its clients signed in, and the load that drives it. */
async function setup(lib, extraEnv, nodeArgs, started) {
  const server = await lib.startServer(extraEnv, { nodeArgs: (nodeArgs ?? '').split(' ').filter(Boolean) });
  started.push(server);
  const db = L.sqlite(`${server.dataDir}/app.sqlite`);
  const hash = await L.serverHash(PASSWORD);
  const orgId = await L.seedOrganisation(db, 'AB', CLIENTS);
  await db.run('BEGIN');
  for (let i = 0; i < CLIENTS; i++) {
    await db.run(
      'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 2, 0)',
      [orgId, `ab${i}@bench.test`, hash, 'A', `B ${i}`],
    );
  }
  await db.run('COMMIT');
  await db.close();
  const clients = [];
  for (let i = 0; i < CLIENTS; i++) clients.push(await L.login(server.base, `ab${i}@bench.test`, PASSWORD));
  let signIns = 0;
  const opts =
    MODE === 'current'
      ? {
          connections: CLIENTS,
          next: (i) => ({ path: '/api/users/current', headers: { authorization: `Bearer ${clients[i].accessToken}` } }),
        }
      : MODE === 'login'
        ? {
            // As many in flight as argon2 has threads (libuv's 4), the accounts in turn.
            connections: 4,
            next: () => {
              const i = signIns++ % CLIENTS;
              const browser = process.env.AB_NEW_BROWSER ? undefined : /browser_id=[^;]+/.exec(clients[i].cookie)?.[0];
              return {
                method: 'POST',
                path: '/auth/login',
                headers: { 'content-type': 'application/json', ...(browser ? { cookie: browser } : {}) },
                body: JSON.stringify({ username: `ab${i}@bench.test`, password: PASSWORD, acceptToS: true }),
              };
            },
          }
        : L.refreshLoad(clients);
  return { server, opts };
}

async function main() {
  // Every server started is stopped, also when a later step fails (a server left running holds the output open).
  const started = [];
  try {
    const a = await setup(
      libAt(process.env.A_ROOT),
      JSON.parse(process.env.A ?? '{}'),
      process.env.A_NODE_ARGS,
      started,
    );
    const b = await setup(
      libAt(process.env.B_ROOT),
      JSON.parse(process.env.B ?? '{}'),
      process.env.B_NODE_ARGS,
      started,
    );
    const cpuA = a.server.cpuMs();
    const cpuB = b.server.cpuMs();
    const r = await L.compare(b.server.base, b.opts, a.server.base, a.opts, { rounds: ROUNDS, slice: SLICE });
    // The server's CPU over the warm-up and the slices, per request answered in the slices.
    const perCall = (server, start, rps) => (server.cpuMs() - start) / (rps * ROUNDS * SLICE);
    const cpuPerA = perCall(a.server, cpuA, r.bare.rps);
    const cpuPerB = perCall(b.server, cpuB, r.product.rps);
    const errors = r.product.errors + r.bare.errors;
    console.log(
      `${MODE}: A ${L.fmt(r.bare.rps)}/s, B ${L.fmt(r.product.rps)}/s: B/A ${L.fmt(r.ratio, 3)}; server CPU a call ` +
        `A ${L.fmt(cpuPerA, 3)} ms, B ${L.fmt(cpuPerB, 3)} ms: B/A ${L.fmt(cpuPerB / cpuPerA, 3)}` +
        (errors ? `; ${errors} errors: ${r.product.firstError ?? r.bare.firstError}` : ''),
    );
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
