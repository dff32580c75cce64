#!/usr/bin/env node
/**
 * A rolling restart behind nginx, on PostgreSQL and Redis (TEST_DATABASE_URL, a user that may create databases,
 * and TEST_REDIS_URL; Debian's nginx): two built instances, 50 signed-in clients reading and writing, 20 sockets;
 * each instance in turn gets SIGTERM and is started again. Beside it, in the same run, the same load for about as
 * long without a restart. Reports reads and their retries, writes acknowledged, lost and refused, how long sockets
 * were away, and how long each instance took from SIGTERM to serving again.
 *
 *   npm run build:server && TEST_DATABASE_URL=… TEST_REDIS_URL=… node bench/rolling-restart.js
 */
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const argon2 = require('argon2');
const Redis = require('ioredis');
const { Client } = require('pg');
const { rollingRestart } = require('../test/utils/servers/rolling-restart.js');
const { percentile, report } = require('./lib');

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const MAIN_JS = join(__dirname, '..', 'dist', 'main.js');
const PASSWORD = 'Rolling-Restart-Pass-1';
const CLIENTS = 50;

async function sql(url, text, params = []) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh database and Redis database, seeded with CLIENTS site admins; then the scenario. */
async function run(restart) {
  const name = `bench_roll_${randomBytes(4).toString('hex')}`;
  await sql(ADMIN_URL, `CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const redisUrl = new URL(REDIS_URL);
  redisUrl.pathname = `/${1 + Math.floor(Math.random() * 15)}`;
  const redis = new Redis(redisUrl.toString());
  await redis.flushdb();
  await redis.quit();
  const dirs = [];
  const shared = {
    DATABASE_URL: url.toString(),
    REDIS_URL: redisUrl.toString(),
    JWT_SECRET: randomBytes(48).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_SUPPORT_EMAIL: 'support@roll.test',
    BOOTSTRAP_SUPPORT_PASSWORD: PASSWORD,
    RATE_LIMIT_SCALE: '1000',
  };
  const env = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tax-portal-bench-roll-'));
    dirs.push(dir);
    return { ...shared, DATA_DIR: dir };
  };
  try {
    // Migrated by a first start, then seeded.
    const { startServer, stopServer } = require('../test/utils/servers/built-server.js');
    await stopServer(await startServer(MAIN_JS, env()));
    const [org] = await sql(
      url.toString(),
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('ROLL', 'Roll Org', 100, 100, '["TAX_MANAGER","CA_VIEWER"]') RETURNING id`,
    );
    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
    const users = Array.from({ length: CLIENTS }, (_, i) => `client${i}@roll.test`);
    for (const email of users)
      await sql(
        url.toString(),
        `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, $2, $3, 'Roll', 'Client', 2, false)`,
        [org.id, email, hash],
      );
    const figures = await rollingRestart({
      mainJs: MAIN_JS,
      env,
      users,
      password: PASSWORD,
      sockets: 20,
      restart,
      log: (line) => console.log(`  ${line}`),
    });
    const stored = new Set(
      (await sql(url.toString(), `SELECT name FROM user_groups WHERE name LIKE 'roll-%'`)).map((r) => r.name),
    );
    if (figures.nginxErrors)
      console.log(`  nginx error log (last lines):\n${figures.nginxErrors.split('\n').slice(-15).join('\n')}`);
    return { ...figures, lost: figures.acknowledged.filter((n) => !stored.has(n)).length };
  } finally {
    await sql(ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** '502 ×3, network ×1' */
function counts(list) {
  const by = new Map();
  for (const x of list) by.set(x, (by.get(x) ?? 0) + 1);
  return [...by].map(([k, n]) => `${k} ×${n}`).join(', ');
}

function describe(f) {
  const gaps = f.socketGapsMs;
  const refused = f.writeFailures.length;
  return (
    `reads ${f.reads} (${f.readRetries} answered on a retry, ${f.readFailures.length} failed` +
    (f.readFailures.length ? `: ${counts(f.readFailures)}` : '') +
    '); ' +
    `writes ${f.acknowledged.length} acknowledged, ${f.lost} lost, ${refused} refused` +
    (refused ? ` (${counts(f.writeFailures)})` : '') +
    (gaps.length
      ? `; sockets away p50 ${percentile(gaps, 50).toFixed(0)} ms, max ${Math.max(...gaps).toFixed(0)} ms (${gaps.length} reconnections)`
      : '; no socket dropped') +
    (f.restartMs.length ? `; SIGTERM to serving again A ${f.restartMs[0]} ms, B ${f.restartMs[1]} ms` : '')
  );
}

async function main() {
  if (!ADMIN_URL || !REDIS_URL) throw new Error('bench/rolling-restart.js needs TEST_DATABASE_URL and TEST_REDIS_URL');
  console.log('baseline: the same load without a restart');
  const baseline = await run(false);
  console.log('rolling restart');
  const rolling = await run(true);
  report(
    'rolling restart of two instances behind nginx, 50 clients, 20 sockets',
    `${describe(rolling)}. Without a restart, same run: ${describe(baseline)}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
