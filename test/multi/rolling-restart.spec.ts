import * as argon2 from 'argon2';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { buildServer, startServer, stopServer } from '../utils/servers/built-server';
import { rollingRestart, RollingRestartFigures } from '../utils/servers/rolling-restart';

/**
 * An operator's rolling restart: two built instances on one PostgreSQL and one Redis behind nginx (the shipped
 * deploy/nginx.conf), each sent SIGTERM and started again in turn while 50 signed-in clients read and write
 * and 20 hold a notification socket. Nothing a client relies on is lost.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
if (!ADMIN_URL || !REDIS_URL)
  throw new Error(
    'The multi-instance suites need TEST_DATABASE_URL and TEST_REDIS_URL (see README, "Several instances").',
  );

const PASSWORD = 'Rolling-Restart-Pass-1';
const CLIENTS = 50;

async function sql(url: string, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe('a rolling restart of two instances behind nginx', () => {
  let databaseName: string;
  let databaseUrl: string;
  const dataDirs: string[] = [];
  let figures: RollingRestartFigures;

  beforeAll(async () => {
    const mainJs = buildServer();
    databaseName = `roll_${randomBytes(4).toString('hex')}`;
    await sql(ADMIN_URL, `CREATE DATABASE ${databaseName}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    const redisUrl = new URL(REDIS_URL);
    redisUrl.pathname = `/${1 + Math.floor(Math.random() * 15)}`;
    const redis = new Redis(redisUrl.toString());
    await redis.flushdb();
    await redis.quit();
    const shared = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl.toString(),
      JWT_SECRET: randomBytes(48).toString('base64'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      BOOTSTRAP_SUPPORT_EMAIL: 'support@roll.test',
      BOOTSTRAP_SUPPORT_PASSWORD: PASSWORD,
      // 50 clients from one address: the limits per address would otherwise be the subject of the test.
      RATE_LIMIT_SCALE: '1000',
      SHUTDOWN_GRACE_SECONDS: '10',
    };
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'tax-portal-roll-'));
      dataDirs.push(dir);
      return { ...shared, DATA_DIR: dir };
    };
    // The schema first (one instance started and stopped by the harness would race the seeding below).
    await stopServer(await startServer(mainJs, env()));
    const [row] = await sql(
      databaseUrl,
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('ROLL', 'Roll Org', 100, 100, '["TAX_MANAGER","CA_VIEWER"]') RETURNING id`,
    );
    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
    const users = Array.from({ length: CLIENTS }, (_, i) => `client${i}@roll.test`);
    for (const email of users)
      await sql(
        databaseUrl,
        `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, $2, $3, 'Roll', 'Client', 2, false)`,
        [row.id, email, hash],
      );
    figures = await rollingRestart({ mainJs, env, users, password: PASSWORD, sockets: 20 });
  }, 300_000);

  afterAll(async () => {
    if (databaseName)
      await sql(ADMIN_URL, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every read a client retries as an idempotent call may be, and each instance exits 0', () => {
    expect(figures.reads).toBeGreaterThan(500);
    expect(figures.readFailures).toEqual([]);
    expect(figures.exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });

  it('keeps every acknowledged write, and refuses none with a server error', async () => {
    expect(figures.acknowledged.length).toBeGreaterThan(100);
    const rows = await sql(databaseUrl, `SELECT name FROM user_groups WHERE name LIKE 'roll-%'`);
    const stored = new Set(rows.map((r) => String(r.name)));
    expect(figures.acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    // A write nginx could not hand to an instance is a gateway error the client sees (never acknowledged).
    expect(figures.writeFailures.filter((s) => s !== '502')).toEqual([]);
  });

  it('brings every socket back within 5 seconds', () => {
    expect(figures.socketsStillLost).toBe(0);
    expect(figures.socketGapsMs.length).toBeGreaterThan(0);
    expect(Math.max(...figures.socketGapsMs)).toBeLessThanOrEqual(5000);
  });
});
