#!/usr/bin/env node
/**
 * The signed-in hot path: password logins per second against raw argon2 verifies, refreshes per
 * second with every client chaining its own rotated cookie, and GET /api/users/current against bare
 * node:http and bare Express servers answering the same bytes, measured in alternating one-second slices.
 *
 *   npm run build && node bench/hot-path.js
 */
const argon2 = require('argon2');
const { availableParallelism } = require('node:os');
const { performance } = require('node:perf_hooks');
const {
  startServer,
  sqlite,
  serverHash,
  seedOrganisation,
  login,
  load,
  compare,
  bareHttp,
  bareExpress,
  fmt,
  report,
  refreshLoad,
} = require('./lib');

const PASSWORD = 'Bench-Pass-12345';
const ACCOUNTS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
// HOT_PATH_ROWS=refresh (comma-separated: login, refresh, current) runs only those rows, e.g. while profiling one.
// Seconds of sign-ins before the first measured slice. V8 optimises a sign-in's path (a few hundred functions, each
// called once or twice a sign-in) over its first two minutes or so at this rate, its compiler's threads taking about
// 2 ms of CPU a sign-in meanwhile: a server that has been up has done that (docs/decisions/perf-sign-in-cpu.md).
const WARMUP_SECONDS = Number(process.env.HOT_PATH_WARMUP_SECONDS ?? 120);
const PER_SLOT = Number(process.env.HOT_PATH_PER_SLOT ?? 2);
const ROWS = new Set((process.env.HOT_PATH_ROWS ?? 'login,refresh,current').split(','));

/** bench/bare-sign-in.js in its own process: its address, its CPU time so far (ms), and a way to stop it. */
async function bareSignIn(hash, slots) {
  const { spawn } = require('node:child_process');
  const { readFileSync } = require('node:fs');
  const child = spawn(process.execPath, [require('node:path').join(__dirname, 'bare-sign-in.js')], {
    env: { PATH: process.env.PATH, BARE_HASH: hash, BARE_SLOTS: String(slots) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`bench/bare-sign-in.js exited with ${code}`)));
  });
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  return { base: `http://127.0.0.1:${port}`, cpuMs, stop: () => child.kill('SIGTERM') };
}

async function main() {
  const server = await startServer();
  try {
    const db = sqlite(`${server.dataDir}/app.sqlite`);
    const hash = await serverHash(PASSWORD);
    const orgId = await seedOrganisation(db, 'HOTPATH', ACCOUNTS);
    await db.run('BEGIN');
    const emails = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const email = `hot${i}@bench.test`;
      await db.run(
        'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 2, 0)',
        [orgId, email, hash, 'Hot', `Path ${i}`],
      );
      emails.push(email);
    }
    await db.run('COMMIT');
    await db.close();

    if (ROWS.has('login')) await logins();
    if (ROWS.has('refresh')) await refreshes();
    if (ROWS.has('current')) await current();

    /**
     * Password logins beside raw argon2 verifies with as many hashes in flight as the server's hashing slots
     * (hashingSlots(), the same machine and environment), in alternating one-second slices so that both see the
     * same machine. The CPU is counted apart: the server's per sign-in, the raw verifies' per verify (this process,
     * hashing threads included), and this process's own as the sign-ins' client.
     */
    async function logins() {
      const { hashingSlots } = require('../dist/identity/credentials/password.service');
      const slots = hashingSlots();
      const cpuMs = () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1000;
      };
      const raw = { n: 0, seconds: 0, cpuMs: 0 };
      // The floor: a bare node:http server in its own process that only verifies the hash (bench/bare-sign-in.js).
      const bare = await bareSignIn(hash, slots);
      const floor = { n: 0, seconds: 0, serverCpuMs: 0, clientCpuMs: 0, errors: 0, firstError: undefined };
      const product = { n: 0, seconds: 0, serverCpuMs: 0, clientCpuMs: 0, errors: 0, firstError: undefined };
      // Each account signs in from the browser it signed in with before (its browser cookie), as a returning
      // person does; HOT_PATH_NEW_BROWSER=1: from a browser never seen (the new-browser e-mail's path).
      const browsers = [];
      for (const email of emails) {
        const { cookie } = await login(server.base, email, PASSWORD);
        browsers.push(process.env.HOT_PATH_NEW_BROWSER ? undefined : /browser_id=[^;]+/.exec(cookie)?.[0]);
      }
      let li = 0;
      const next = (i) => {
        const account = li++ % ACCOUNTS;
        return {
          method: 'POST',
          path: '/auth/login',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `10.0.${i}.${li % 250}`,
            ...(browsers[account] ? { cookie: browsers[account] } : {}),
          },
          body: JSON.stringify({ username: emails[account], password: PASSWORD, acceptToS: true }),
        };
      };
      try {
        // Warmed up first: the product's server for WARMUP_SECONDS, the floor (a few lines of JavaScript) briefly.
        await load(server.base, { connections: slots * PER_SLOT, seconds: WARMUP_SECONDS, warmupSeconds: 0, next });
        await load(bare.base, { connections: slots * PER_SLOT, seconds: 3, warmupSeconds: 0, next });
        for (let round = 0; round < SECONDS * 2; round++) {
          const rawStart = performance.now();
          const rawCpu = cpuMs();
          await Promise.all(
            Array.from({ length: slots }, async () => {
              while (performance.now() - rawStart < 1000) {
                await argon2.verify(hash, PASSWORD);
                raw.n++;
              }
            }),
          );
          raw.seconds += (performance.now() - rawStart) / 1000;
          raw.cpuMs += cpuMs() - rawCpu;
          // One second of sign-ins against a server, added to its tally. Twice the slots: a sign-in's statements and
          // HTTP run while the next one's hash waits for a slot.
          const signIns = async (base, serverCpuMs, tally) => {
            const clientCpu = cpuMs();
            const slice = await load(base, {
              connections: slots * PER_SLOT,
              seconds: 1,
              warmupSeconds: 0,
              cpuMs: serverCpuMs,
              next,
            });
            tally.n += slice.n;
            tally.seconds += slice.seconds;
            tally.serverCpuMs += slice.cpuPerCall * slice.n;
            tally.errors += slice.errors;
            tally.firstError ??= slice.firstError;
            tally.clientCpuMs += cpuMs() - clientCpu;
          };
          await signIns(server.base, server.cpuMs, product);
          await signIns(bare.base, bare.cpuMs, floor);
        }
      } finally {
        bare.stop();
      }
      const rawRate = raw.n / raw.seconds;
      const rate = product.n / product.seconds;
      // The bench's client shares the cores with the server: the rate the server reaches on its own is the rate
      // measured, scaled by the cores' time over what the client left of it (the server is CPU-bound here).
      const cores = availableParallelism() * 1000;
      const alone = (t) => t.n / t.seconds / (1 - t.clientCpuMs / t.seconds / cores);
      const perCall = (ms, n) => fmt(ms / Math.max(1, n), 1);
      report(
        'password logins/s',
        `${fmt(rate)} (${fmt(alone(product) / rawRate, 2)} of raw argon2 verifies with the bench client's CPU counted apart, ${fmt(rate / rawRate, 2)} with it; raw ${fmt(rawRate)}/s; both with ${slots} hashes in flight, alternating one-second slices; ${process.env.HOT_PATH_NEW_BROWSER ? 'each from a new browser' : "each from the account's known browser"}); CPU a sign-in: server ${perCall(product.serverCpuMs, product.n)} ms beside ${perCall(raw.cpuMs, raw.n)} ms a raw verify (${fmt(raw.cpuMs / raw.n / (product.serverCpuMs / product.n), 2)}), the bench's client ${perCall(product.clientCpuMs, product.n)} ms; the floor, a bare node:http server that only verifies (bench/bare-sign-in.js): ${fmt(floor.n / floor.seconds)}/s, ${fmt(alone(floor) / rawRate, 2)} of raw (${fmt(floor.n / floor.seconds / rawRate, 2)} with the client), ${perCall(floor.serverCpuMs, floor.n)} ms a sign-in${floor.errors ? ` (${floor.errors} errors)` : ''}${product.errors ? `; ${product.errors} errors: ${product.firstError}` : ''}`,
      );
    }

    async function refreshes() {
      // Refreshes: each connection is one signed-in client chaining its own cookie.
      const clients = [];
      for (let i = 0; i < 16; i++) clients.push(await login(server.base, emails[i], PASSWORD));
      const product = { ...refreshLoad(clients), cpuMs: server.cpuMs };
      const refreshes = await load(server.base, { ...product, seconds: SECONDS });
      // The anchor: a bare node:http server answering a refresh's bytes (its body and its cookie), alternating
      // one-second slices with the product, so that the rate reads against this machine's speed.
      const sample = await fetch(`${server.base}/refresh`, { method: 'POST', headers: { cookie: clients[0].cookie } });
      clients[0].cookie = sample.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const bare = await bareHttp(Buffer.from(await sample.arrayBuffer()), {
        'content-type': 'application/json; charset=utf-8',
        'set-cookie': sample.headers.getSetCookie(),
      });
      const vsHttp = await compare(
        server.base,
        product,
        bare.base,
        {
          connections: clients.length,
          next: () => ({ method: 'POST', path: '/refresh' }),
        },
        { rounds: SECONDS },
      );
      await bare.close();
      report(
        'refreshes/s',
        `${fmt(refreshes.rps)}, p99 ${fmt(refreshes.p99)} ms, ${fmt(refreshes.cpuPerCall, 2)} ms server CPU each: ${fmt(vsHttp.ratio, 3)} of bare node:http (${fmt(vsHttp.bare.rps, 0)}/s)${refreshes.errors ? `; ${refreshes.errors} errors: ${refreshes.firstError}` : ''}`,
      );
    }

    async function current() {
      // GET /api/users/current: 32 connections over 16 signed-in accounts, against bare servers with the same bytes.
      const tokens = [];
      for (let i = 16; i < 32; i++) tokens.push((await login(server.base, emails[i], PASSWORD)).accessToken);
      const sample = await fetch(`${server.base}/api/users/current`, {
        headers: { authorization: `Bearer ${tokens[0]}` },
      });
      const bytes = Buffer.from(await sample.arrayBuffer());
      const product = {
        connections: 32,
        next: (i) => ({
          path: '/api/users/current',
          headers: { authorization: `Bearer ${tokens[i % tokens.length]}` },
        }),
      };
      const anchor = { connections: 32, next: () => ({ path: '/api/users/current' }) };
      const bare = await bareHttp(bytes);
      const bareEx = await bareExpress(bytes);
      const vsHttp = await compare(server.base, product, bare.base, anchor, { rounds: SECONDS });
      const vsExpress = await compare(server.base, product, bareEx.base, anchor, { rounds: Math.ceil(SECONDS / 2) });
      await bare.close();
      await bareEx.close();
      const current = vsHttp.product;
      report(
        'GET /api/users/current',
        `${fmt(current.rps, 0)} req/s, p99 ${fmt(current.p99)} ms: ${fmt(vsHttp.ratio, 3)} of bare node:http (${fmt(vsHttp.bare.rps, 0)}/s), ${fmt(vsExpress.ratio, 3)} of bare Express (${fmt(vsExpress.bare.rps, 0)}/s)${current.errors ? `; ${current.errors} errors: ${current.firstError}` : ''}`,
      );
    }
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(`hot-path bench failed: ${e.stack ?? e}`);
  process.exitCode = 1;
});
