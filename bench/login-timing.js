#!/usr/bin/env node
/**
 * Does the answer time reveal whether an account exists? The BUILT server (dist/main.js) on a
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
const { report, startServer, sqlite, serverHash, seedOrganisation } = require('./lib');
const { join } = require('node:path');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg('requests', 150);
const WARMUP = 10;
const PASSWORD = 'Bench-Pass-12345';
const RATIO_BOUNDS = [0.75, 1.33];

/** One organisation with `count` ordinary accounts (no MFA, no forced change), hashed as the server hashes; answers their e-mails. */
async function seed(file, count) {
  const hash = await serverHash(PASSWORD);
  const db = sqlite(file);
  const orgId = await seedOrganisation(db, 'TIMING', count);
  const emails = [];
  await db.run('BEGIN');
  for (let i = 0; i < count; i++) {
    const email = `member${i}@timing.test`;
    emails.push(email);
    await db.run(
      'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 6, 0)',
      [orgId, email, hash, 'Member', `${i}`],
    );
  }
  await db.run('COMMIT');
  await db.close();
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
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify(body),
  });
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
  // A fresh client address per request (X-Forwarded-For behind TRUST_PROXY), and the real rate limits.
  const server = await startServer({ TRUST_PROXY: 'true', RATE_LIMIT_SCALE: '1000' });
  const { base } = server;
  try {
    const n = WARMUP + REQUESTS;
    // Separate accounts for each call, each tried once.
    const emails = await seed(join(server.dataDir, 'app.sqlite'), 2 * n);
    const ratios = [
      await compare('POST /auth/login, wrong password', emails.slice(0, n), (username) =>
        timed(`${base}/auth/login`, { username, password: 'Wrong-Password-1', acceptToS: true }, 401),
      ),
      await compare('POST /auth/forgot-password', emails.slice(n), (username) =>
        timed(`${base}/auth/forgot-password`, { username }, 200),
      ),
    ];
    if (ratios.some((r) => r < RATIO_BOUNDS[0] || r > RATIO_BOUNDS[1])) {
      console.error(
        `A ratio is outside ${RATIO_BOUNDS.join('–')}: the answer time tells existing accounts from unknown ones.`,
      );
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
