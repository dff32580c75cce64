import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { BuiltServer, buildServer, startServer, stopServer } from '../utils/servers/built-server.js';

/**
 * Support access across two built server processes on one PostgreSQL and one Redis (docs/support-access.md): a
 * support-access session started through A works through B, and once stopped on A (or turned off by the
 * organisation on A) is refused by B on its very next call. Needs TEST_DATABASE_URL and TEST_REDIS_URL.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
if (!ADMIN_URL || !REDIS_URL)
  throw new Error(
    'The multi-instance suites need TEST_DATABASE_URL and TEST_REDIS_URL (see README, "Several instances").',
  );

const PASSWORD = 'Multi-Instance-Pass-1';
const SUPPORT = 'support@multi-support.test';
const REASON = 'Member reports the holdings page shows no data';

async function sql(url: string, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

async function call(
  server: BuiltServer,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function signIn(server: BuiltServer, username: string): Promise<string> {
  const res = await call(server, 'POST', '/auth/login', { body: { username, password: PASSWORD, acceptToS: true } });
  if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.accessToken as string;
}

describe('Support access on several instances', () => {
  let databaseUrl: string;
  let databaseName: string;
  const dataDirs: string[] = [];
  let a: BuiltServer;
  let b: BuiltServer;
  let org: number;
  let member: number;

  beforeAll(async () => {
    const mainJs = buildServer();
    databaseName = `multi_support_${randomBytes(4).toString('hex')}`;
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
      BOOTSTRAP_SUPPORT_EMAIL: SUPPORT,
      BOOTSTRAP_SUPPORT_PASSWORD: PASSWORD,
      PUBLIC_URL: 'http://portal.multi.test',
    };
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'tax-portal-multi-'));
      dataDirs.push(dir);
      return { ...shared, DATA_DIR: dir };
    };
    [a, b] = await Promise.all([startServer(mainJs, env()), startServer(mainJs, env())]);
    const [row] = await sql(
      databaseUrl,
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications, "supportAccess") VALUES ('SUPP', 'Support Org', 50, 50, '["TAX_MANAGER","CA_VIEWER"]', 'always') RETURNING id`,
    );
    org = Number(row.id);
    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
    for (const [email, role] of [
      ['site.admin@multi-support.test', 2],
      ['member@multi-support.test', 6],
    ] as const)
      await sql(
        databaseUrl,
        `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, $2, $3, 'Multi', 'User', $4, false)`,
        [org, email, hash, role],
      );
    member = Number((await sql(databaseUrl, `SELECT id FROM users WHERE email = 'member@multi-support.test'`))[0].id);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((s) => stopServer(s)));
    await sql(ADMIN_URL!, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A support-access session started through A: its request id and the member's token. */
  async function started(support: string): Promise<{ id: number; token: string }> {
    const asked = await call(a, 'POST', '/api/support-access', {
      token: support,
      body: { userId: member, reason: REASON },
    });
    expect(asked.status).toBe(201);
    const id = asked.body.id as number;
    const start = await call(a, 'POST', `/api/support-access/${id}/start`, { token: support });
    expect(start.status).toBe(200);
    return { id, token: start.body.accessToken as string };
  }

  it('started on A, it works on B; stopped on A, B refuses it at its very next call', async () => {
    const support = await signIn(a, SUPPORT);
    const s = await started(support);
    const onB = await call(b, 'GET', '/api/users/current', { token: s.token });
    expect(onB.status).toBe(200);
    expect(onB.body.email).toBe('member@multi-support.test');
    expect((await call(b, 'POST', '/auth/step-up', { token: s.token, body: { password: PASSWORD } })).body.code).toBe(
      'SUPPORT_ACCESS_FORBIDDEN',
    );
    expect((await call(a, 'DELETE', `/api/support-access/${s.id}`, { token: support })).status).toBe(200);
    const after = await call(b, 'GET', '/api/users/current', { token: s.token });
    expect({ status: after.status, code: after.body.code }).toEqual({ status: 401, code: 'SESSION_ENDED' });
  });

  it('turned off by the organisation on A, B refuses the running session at once', async () => {
    const support = await signIn(b, SUPPORT);
    const s = await started(support);
    expect((await call(b, 'GET', '/api/users/current', { token: s.token })).status).toBe(200);
    const admin = await signIn(a, 'site.admin@multi-support.test');
    const off = await call(a, 'PUT', `/api/organisations/${org}/security-policy`, {
      token: admin,
      body: { supportAccess: 'never' },
    });
    expect(off.status).toBe(200);
    const after = await call(b, 'GET', '/api/users/current', { token: s.token });
    expect({ status: after.status, code: after.body.code }).toEqual({ status: 401, code: 'SESSION_ENDED' });
    // Recorded once, by whichever instance saw it first.
    let status: unknown;
    for (let i = 0; i < 50 && status !== 'ended'; i++) {
      status = (await sql(databaseUrl, 'SELECT status FROM support_access WHERE id = $1', [s.id]))[0].status;
      if (status !== 'ended') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('ended');
    const ended = await sql(
      databaseUrl,
      `SELECT COUNT(*) AS n FROM audit_events WHERE type = 'SUPPORT_ACCESS_ENDED' AND "supportAccessId" = $1`,
      [s.id],
    );
    expect(Number(ended[0].n)).toBe(1);
  });
});
