import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { BuiltServer, buildServer, startServer, stopServer } from '../utils/servers/built-server.js';
import { WebhookReceiver } from '../utils/servers/webhook-receiver';

/**
 * Webhooks from two built instances on one PostgreSQL (no Redis: the outbox needs none): both write deliveries and
 * both work the one outbox; one receiver gets every event exactly once. Needs TEST_DATABASE_URL.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL;
if (!ADMIN_URL) throw new Error('The multi-instance suite needs TEST_DATABASE_URL (see README, "Several instances").');

const PASSWORD = 'Multi-Hooks-Pass-1';

async function sql(url: string, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

async function post(server: BuiltServer, path: string, token: string, body?: unknown) {
  const res = await fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function signIn(server: BuiltServer, username: string): Promise<string> {
  const res = await fetch(`${server.base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD, acceptToS: true }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

describe('Webhooks from several instances', () => {
  let databaseUrl: string;
  let databaseName: string;
  const dataDirs: string[] = [];
  let a: BuiltServer;
  let b: BuiltServer;
  const rx = new WebhookReceiver();

  beforeAll(async () => {
    const mainJs = buildServer();
    databaseName = `multi_hooks_${randomBytes(4).toString('hex')}`;
    await sql(ADMIN_URL, `CREATE DATABASE ${databaseName}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    const shared = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(48).toString('base64'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      BOOTSTRAP_SUPPORT_EMAIL: 'support@multi-hooks.test',
      BOOTSTRAP_SUPPORT_PASSWORD: PASSWORD,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s',
    };
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'tax-portal-multi-hooks-'));
      dataDirs.push(dir);
      return { ...shared, DATA_DIR: dir };
    };
    [a, b] = await Promise.all([startServer(mainJs, env()), startServer(mainJs, env())]);
    await rx.start();
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((s) => stopServer(s)));
    await rx.stop();
    await sql(ADMIN_URL!, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('every event, written on either instance, reaches the receiver exactly once', async () => {
    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
    const [org] = await sql(
      databaseUrl,
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('HOOKS', 'Hooks Org', 200, 200, '["TAX_MANAGER"]') RETURNING id`,
    );
    const admin = 'site.admin@multi-hooks.test';
    await sql(
      databaseUrl,
      `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, $2, $3, 'Site', 'Admin', 2, false)`,
      [Number(org.id), admin, hash],
    );
    const [tokenA, tokenB] = [await signIn(a, admin), await signIn(b, admin)];
    // A receiver that takes a moment to answer, so that both instances' workers meet the same due rows.
    const url = rx.answer('/multi', { status: 204, delayMs: 30 });
    const created = await post(a, '/api/webhooks', tokenA, { url, events: ['user.created', 'webhook.test'] });
    expect(created.status).toBe(201);
    const { id, secret } = created.body as { id: number; secret: string };

    const emails = Array.from({ length: 30 }, (_, i) => `member${i}@multi-hooks.test`);
    const results = await Promise.all([
      ...emails.map((email, i) =>
        fetch(`${(i % 2 ? a : b).base}/api/users/add`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${i % 2 ? tokenA : tokenB}` },
          body: JSON.stringify({ userEmail: email }),
        }).then((r) => r.status),
      ),
      ...Array.from({ length: 20 }, (_, i) =>
        post(i % 2 ? a : b, `/api/webhooks/${id}/test`, i % 2 ? tokenA : tokenB).then((r) => r.status),
      ),
    ]);
    expect(results.filter((s) => s === 201)).toHaveLength(30);
    expect(results.filter((s) => s === 202)).toHaveLength(20);

    await rx.waitFor('/multi', 50, 60_000);
    // Long enough for a duplicate attempt (another instance's sweep) to show.
    await new Promise((r) => setTimeout(r, 3000));
    const received = rx.on('/multi');
    const ids = received.map((r) => r.headers['webhook-id'] as string);
    expect(new Set(ids).size).toBe(50);
    expect(ids).toHaveLength(50);
    const bodies = received.map(
      (r) =>
        new Webhook(secret).verify(r.body, {
          'webhook-id': r.headers['webhook-id'] as string,
          'webhook-timestamp': r.headers['webhook-timestamp'] as string,
          'webhook-signature': r.headers['webhook-signature'] as string,
        }) as { type: string; data: { email?: string } },
    );
    expect(
      bodies
        .filter((x) => x.type === 'user.created')
        .map((x) => x.data.email)
        .sort(),
    ).toEqual([...emails].sort());
    const rows = await sql(databaseUrl, `SELECT status, attempts FROM integration_deliveries WHERE "endpointId" = $1`, [
      id,
    ]);
    expect(rows).toHaveLength(50);
    expect(rows.every((r) => r.status === 'succeeded' && Number(r.attempts) === 1)).toBe(true);
  }, 180_000);
});
