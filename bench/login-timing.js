#!/usr/bin/env node
/**
 * Does the answer time reveal whether an account exists (issue 9)? The BUILT server (dist/main.js) on a
 * temporary DATA_DIR, accounts seeded straight into SQLite with the server's own argon2 parameters, then,
 * alternating, requests for existing and for unknown e-mails:
 *   - POST /auth/login with a wrong password,
 *   - POST /auth/forgot-password.
 * Each existing account is tried once and each request comes from its own address (TRUST_PROXY and
 * X-Forwarded-For), so the sign-in throttling does not add its delays. Prints the two medians and their
 * ratio for each call, and exits 1 when a ratio is outside 0.75–1.33.
 *
 *   npm run build:server && node bench/login-timing.js [--requests 150]
 */
const { report } = require('./lib');
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
const REQUESTS = arg('requests', 150);
const WARMUP = 10;
const PASSWORD = 'Bench-Pass-12345';
/** The server's parameters (src/auth/password.service.ts). */
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
const RATIO_BOUNDS = [0.75, 1.33];

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

function sqlite(file) {
  const sqlite3 = require('sqlite3');
  const db = new sqlite3.Database(file);
  const run = (sql, params = []) =>
    new Promise((resolve, reject) => db.run(sql, params, function done(err) { if (err) reject(err); else resolve(this); }));
  const close = () => new Promise((resolve) => db.close(() => resolve()));
  return { run, close };
}

/** One organisation with `count` ordinary accounts (no MFA, no forced change); answers their e-mails. */
async function seed(file, count) {
  const argon2 = require('argon2');
  const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id, ...ARGON2 });
  const { run, close } = sqlite(file);
  await run('PRAGMA busy_timeout = 5000');
  const org = await run(
    "INSERT INTO organisations (code, name, allowedUsersNumber, maxConcurrentUsers, maxPortfolios, applications) VALUES ('TIMING', 'Timing Org', ?, 100, 10, '[\"TAX_MANAGER\"]')",
    [count + 10],
  );
  const emails = [];
  await run('BEGIN');
  for (let i = 0; i < count; i++) {
    const email = `member${i}@timing.test`;
    emails.push(email);
    await run('INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 6, 0)', [org.lastID, email, hash, 'Member', `${i}`]);
  }
  await run('COMMIT');
  await close();
  return emails;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let address = 0;
/** A fresh client address per request (10.x.y.z), so no per-address counter grows. */
function nextAddress() {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
}

async function timed(url, body, expectStatus) {
  const start = process.hrtime.bigint();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() }, body: JSON.stringify(body) });
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== expectStatus) throw new Error(`${url} answered ${res.status} (expected ${expectStatus}): ${text}`);
  return ms;
}

/** Alternates existing and unknown e-mails (so drift in the machine's load hits both alike). */
async function compare(label, existing, call) {
  const known = [];
  const unknown = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const a = await call(existing[i], true);
    const b = await call(`nobody${i}-${Date.now()}@timing.test`, false);
    if (i >= WARMUP) {
      known.push(a);
      unknown.push(b);
    }
  }
  const k = median(known);
  const u = median(unknown);
  const ratio = k / u;
  const line = `existing e-mail median ${k.toFixed(1)} ms, unknown e-mail median ${u.toFixed(1)} ms, ratio ${ratio.toFixed(2)} (${REQUESTS} each)`;
  console.log(`${label}: ${line}`);
  report(`${label}: existing vs unknown e-mail`, line);
  return ratio;
}

async function main() {
  const mainJs = join(root, 'dist', 'main.js');
  if (!existsSync(mainJs)) throw new Error('dist/main.js is missing: run `npm run build:server` first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-login-timing-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [mainJs], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
      SMTP_URL: '',
      TRUST_PROXY: 'true',
      BOOTSTRAP_SUPPORT_EMAIL: 'support@bench.test',
      BOOTSTRAP_SUPPORT_PASSWORD: 'Support-Bench-1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`${base}/api/health`, child);
    const n = WARMUP + REQUESTS;
    // Separate accounts for each call, each tried once.
    const emails = await seed(join(dataDir, 'app.sqlite'), 2 * n);
    const ratios = [
      await compare('POST /auth/login, wrong password', emails.slice(0, n), (username) =>
        timed(`${base}/auth/login`, { username, password: 'Wrong-Password-1', acceptToS: true }, 401),
      ),
      await compare('POST /auth/forgot-password', emails.slice(n), (username) => timed(`${base}/auth/forgot-password`, { username }, 200)),
    ];
    if (ratios.some((r) => r < RATIO_BOUNDS[0] || r > RATIO_BOUNDS[1])) {
      console.error(`A ratio is outside ${RATIO_BOUNDS.join('–')}: the answer time tells existing accounts from unknown ones.`);
      process.exitCode = 1;
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    if (process.env.BENCH_KEEP) console.log(`Data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
