#!/usr/bin/env node
/**
 * Load (issue 9): the built server on a fresh SQLite file, 200 users of one organisation each signed in
 * from its own client, then 200 clients for 60 s in closed loops of mixed calls: 70 % reads (current
 * user, a user-list page, the notification list) and 30 % writes (own profile update). Prints
 * throughput, p50/p99 latency and errors (5xx, network), throttled answers (429) separately.
 *
 *   npm run build:server && node bench/load.js [--clients 200] [--seconds 60]
 */
const { spawn } = require('node:child_process');
const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CLIENTS = arg('clients', 200);
const SECONDS = arg('seconds', 60);
const PASSWORD = 'Load-Bench-Pass-1';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer ${url} within ${ms} ms`);
}

/** Seeds the organisation and its users straight into the migrated file, hashed as the server hashes. */
async function seed(file) {
  const sqlite3 = require('sqlite3');
  const argon2 = require('argon2');
  const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
  const db = new sqlite3.Database(file);
  const run = (sql, params = []) =>
    new Promise((resolve, reject) => db.run(sql, params, function done(err) { if (err) reject(err); else resolve(this); }));
  await run('PRAGMA busy_timeout = 5000');
  const org = await run(
    "INSERT INTO organisations (code, name, allowedUsersNumber, maxConcurrentUsers, maxPortfolios, applications) VALUES ('LOAD', 'Load Org', ?, ?, 10, '[\"TAX_MANAGER\",\"CA_VIEWER\"]')",
    [CLIENTS + 10, CLIENTS + 10],
  );
  await run('BEGIN');
  const emails = [];
  for (let i = 0; i < CLIENTS; i++) {
    const email = `load${i}@load.test`;
    emails.push(email);
    await run('INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, ?, 0)', [
      org.lastID,
      email,
      hash,
      'Load',
      `User ${i}`,
      i % 10 === 0 ? 2 : 4,
    ]);
  }
  await run('COMMIT');
  await new Promise((r) => db.close(r));
  return emails;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const mainJs = join(root, 'dist', 'main.js');
  if (!existsSync(mainJs)) throw new Error('dist/main.js is missing: run `npm run build:server` first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-load-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [mainJs], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: 'error', DATABASE_URL: '', BOOTSTRAP_SUPPORT_EMAIL: 'support@load.test', BOOTSTRAP_SUPPORT_PASSWORD: 'Support-Load-1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`${base}/api/health`, child);
    const emails = await seed(join(dataDir, 'app.sqlite'));
    const tokens = [];
    for (let i = 0; i < emails.length; i += 10) {
      const batch = await Promise.all(
        emails.slice(i, i + 10).map(async (username) => {
          const res = await fetch(`${base}/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password: PASSWORD, acceptToS: true }),
          });
          if (!res.ok) throw new Error(`sign-in of ${username} failed: ${res.status} ${await res.text()}`);
          return (await res.json()).accessToken;
        }),
      );
      tokens.push(...batch);
    }

    const latencies = [];
    const counts = { ok: 0, throttled: 0, clientErrors: 0, serverErrors: 0, network: 0, reads: 0, writes: 0 };
    const until = Date.now() + SECONDS * 1000;
    const client = async (c) => {
      const headers = { authorization: `Bearer ${tokens[c]}`, 'content-type': 'application/json' };
      for (let n = 0; Date.now() < until; n++) {
        const pick = (c + n) % 10;
        let req;
        if (pick < 3) {
          counts.writes++;
          req = fetch(`${base}/api/users/updateUser`, { method: 'PUT', headers, body: JSON.stringify({ jobTitle: `Job ${n}`, location: `Desk ${c}` }) });
        } else {
          counts.reads++;
          const path = pick < 6 ? '/api/users/current' : pick < 8 ? '/api/users?pageSize=50' : '/api/notifications';
          req = fetch(`${base}${path}`, { headers });
        }
        const start = process.hrtime.bigint();
        try {
          const res = await req;
          await res.arrayBuffer();
          latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
          if (res.status === 429) counts.throttled++;
          else if (res.status >= 500) counts.serverErrors++;
          else if (res.status >= 400) counts.clientErrors++;
          else counts.ok++;
        } catch {
          counts.network++;
        }
      }
    };
    const started = Date.now();
    await Promise.all(tokens.map((_, c) => client(c)));
    const elapsed = (Date.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const total = latencies.length + counts.network;
    console.log(
      `load: ${CLIENTS} clients, ${elapsed.toFixed(0)} s, ${(total / elapsed).toFixed(0)} req/s ` +
        `(${counts.reads} reads, ${counts.writes} writes), p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
        `errors ${counts.serverErrors + counts.network} (5xx ${counts.serverErrors}, network ${counts.network}), 4xx ${counts.clientErrors}, throttled ${counts.throttled}`,
    );
    if (counts.serverErrors + counts.network > 0) process.exitCode = 1;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
