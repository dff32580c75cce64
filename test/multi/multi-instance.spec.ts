import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import Redis from 'ioredis';
import { Client } from 'pg';
import { io, Socket } from 'socket.io-client';
import { BuiltServer, buildServer, startServer, stopServer } from '../utils/servers/built-server.js';
import { PNG_BYTES } from '../utils/org-admin';
import { encrypt } from '../../src/platform/crypto/secrets';
import { signInAtProvider, startOrgOidcProvider } from '../utils/identity-providers/oidc';
import { startTestIdp } from '../utils/identity-providers/saml-idp';

/**
 * Two built server processes on one PostgreSQL and one Redis, as behind a load balancer: every
 * piece of state a user relies on is shared. Needs TEST_DATABASE_URL (a PostgreSQL user that may create
 * databases) and TEST_REDIS_URL; `.ci/run` starts both.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
if (!ADMIN_URL || !REDIS_URL)
  throw new Error(
    'The multi-instance suite needs TEST_DATABASE_URL and TEST_REDIS_URL (see README, "Several instances").',
  );

const PASSWORD = 'Multi-Instance-Pass-1';
const SERVICE_API_KEY = 'multi-instance-service-key-0123456789';
/** Both instances are one site behind the load balancer: the SSO audience, ACS and callback are the same. */
const PUBLIC_URL = 'http://portal.multi.test';

async function sql(url: string, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

interface Json {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function call(
  server: BuiltServer,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<Json> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}

async function signIn(
  server: BuiltServer,
  username: string,
  extra: Record<string, unknown> = {},
  token?: string,
): Promise<{ accessToken: string; cookie: string; res: Json }> {
  const res = await call(server, 'POST', '/auth/login', {
    body: { username, password: PASSWORD, acceptToS: true, ...extra },
    token,
  });
  const cookie = (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('refreshToken='))?.split(';')[0] ?? '';
  return { accessToken: res.body.accessToken as string, cookie, res };
}

function connectSocket(server: BuiltServer, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(server.base, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (e) => reject(e));
  });
}

function nextEvent<T>(socket: Socket, event: string, ms = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

describe('Several instances on one PostgreSQL and one Redis', () => {
  let mainJs: string;
  let databaseUrl: string;
  let databaseName: string;
  const dataDirs: string[] = [];
  let a: BuiltServer;
  let b: BuiltServer;
  let org: number;
  let siteAdmin: string;
  let encryptionKey: Buffer;
  const member = (n: number) => `member${n}@multi.test`;

  beforeAll(async () => {
    mainJs = buildServer();
    databaseName = `multi_${randomBytes(4).toString('hex')}`;
    await sql(ADMIN_URL, `CREATE DATABASE ${databaseName}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    await sql(databaseUrl, 'SELECT 1');
    // A Redis database of its own, emptied first: counters of an earlier run (same accounts, same address) must not count.
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
      SERVICE_API_KEY,
      BOOTSTRAP_SUPPORT_EMAIL: 'support@multi.test',
      BOOTSTRAP_SUPPORT_PASSWORD: PASSWORD,
      PUBLIC_URL,
      SSO_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    encryptionKey = Buffer.from(shared.ENCRYPTION_KEY, 'base64');
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'tax-portal-multi-'));
      dataDirs.push(dir);
      return { ...shared, DATA_DIR: dir };
    };
    // Both start at once on the empty database: migrations and the bootstrap must not race.
    [a, b] = await Promise.all([startServer(mainJs, env()), startServer(mainJs, env())]);

    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
    const [row] = await sql(
      databaseUrl,
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('MULTI', 'Multi Org', 50, 50, '["TAX_MANAGER","CA_VIEWER"]') RETURNING id`,
    );
    org = Number(row.id);
    siteAdmin = 'site.admin@multi.test';
    const users: Array<[string, number]> = [
      [siteAdmin, 2],
      ...Array.from({ length: 7 }, (_, i): [string, number] => [member(i), 4]),
    ];
    for (const [email, role] of users) {
      await sql(
        databaseUrl,
        `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, $2, $3, 'Multi', 'User', $4, false)`,
        [org, email, hash, role],
      );
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((s) => stopServer(s)));
    await sql(ADMIN_URL!, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('two instances started at once on an empty database both serve, and the vendor organisation exists once', async () => {
    expect((await call(a, 'GET', '/api/health')).status).toBe(200);
    expect((await call(b, 'GET', '/api/health')).status).toBe(200);
    const vendors = await sql(databaseUrl, `SELECT COUNT(*)::int AS n FROM organisations WHERE "isVendor" = true`);
    expect(vendors[0].n).toBe(1);
    const migrations = await sql(
      databaseUrl,
      'SELECT name, COUNT(*)::int AS n FROM migrations GROUP BY name HAVING COUNT(*) > 1',
    );
    expect(migrations).toEqual([]);
  });

  it('a session opened on A works on B (calls and refresh), and logout on A refuses it on B at once', async () => {
    const s = await signIn(a, member(0));
    expect(s.res.status).toBe(200);
    expect((await call(b, 'GET', '/api/users/current', { token: s.accessToken })).status).toBe(200);
    const refreshed = await call(b, 'POST', '/refresh', { cookie: s.cookie });
    expect(refreshed.status).toBe(200);
    const token = refreshed.body.newAccessToken as string;
    // Both tokens known to B's guard (verified once by passport-jwt there) before the session ends on A.
    for (let i = 0; i < 2; i++) {
      expect((await call(b, 'GET', '/api/users/current', { token })).status).toBe(200);
      expect((await call(b, 'GET', '/api/users/current', { token: s.accessToken })).status).toBe(200);
    }
    expect((await call(a, 'POST', '/auth/logout', { token })).status).toBeLessThan(300);
    expect((await call(b, 'GET', '/api/users/current', { token })).status).toBe(401);
    expect((await call(b, 'GET', '/api/users/current', { token: s.accessToken })).status).toBe(401);
  });

  it('a socket on B is dropped when the session ends on A (logout), and when a site admin on A forces a log-off', async () => {
    const s1 = await signIn(a, member(1));
    const socket1 = await connectSocket(b, s1.accessToken);
    const gone1 = nextEvent(socket1, 'disconnect');
    await call(a, 'POST', '/auth/logout', { token: s1.accessToken });
    await gone1;

    const s2 = await signIn(b, member(2));
    const socket2 = await connectSocket(b, s2.accessToken);
    expect((await call(b, 'GET', '/api/users/current', { token: s2.accessToken })).status).toBe(200);
    const gone2 = nextEvent(socket2, 'disconnect');
    const admin = await signIn(a, siteAdmin);
    const [target] = await sql(databaseUrl, 'SELECT id FROM users WHERE email = $1', [member(2)]);
    const forced = await call(a, 'POST', '/api/userLoginActivities/force-logoff', {
      token: admin.accessToken,
      body: { userIds: [Number(target.id)] },
    });
    expect(forced.status).toBeLessThan(300);
    await gone2;
    expect((await call(b, 'GET', '/api/users/current', { token: s2.accessToken })).status).toBe(401);
  });

  it('a notification published through A reaches the user’s socket on B', async () => {
    const s = await signIn(b, member(3));
    const socket = await connectSocket(b, s.accessToken);
    try {
      const [user] = await sql(databaseUrl, 'SELECT id FROM users WHERE email = $1', [member(3)]);
      const received = nextEvent<{ type: string; content: { message?: string } }>(socket, 'notification');
      const published = await call(a, 'POST', '/api/notifications', {
        headers: { 'x-api-key': SERVICE_API_KEY },
        body: { userId: Number(user.id), type: 'REPORT', content: { status: 'DONE', message: 'Through A, to B' } },
      });
      expect(published.status).toBe(201);
      expect((await received).content.message).toBe('Through A, to B');
    } finally {
      socket.close();
    }
  });

  it('rate limits count requests to both instances together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await call(i % 2 ? b : a, 'POST', '/auth/forgot-password', { body: { username: `nobody${i}@multi.test` } }))
          .status,
      );
    }
    // 10 a minute per address (auth.controller): alternating instances must not double it.
    expect(statuses.slice(0, 10).every((s) => s === 200 || s === 201)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('sign-in failures spread over A and B lock the account and address together', async () => {
    const attempt = (server: BuiltServer, password: string) =>
      call(server, 'POST', '/auth/login', { body: { username: member(5), password, acceptToS: true } });
    for (let i = 0; i < 5; i++) expect((await attempt(i % 2 ? b : a, 'Wrong-Password-1')).status).toBe(401);
    // Five failures from this address lock the pair on both instances, the right password included.
    for (const server of [a, b]) {
      const locked = await attempt(server, PASSWORD);
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
    }
  });

  it('a logo uploaded through A is saved and served by B', async () => {
    const admin = await signIn(a, siteAdmin);
    const url = await call(a, 'POST', '/api/logo/get-upload-url', {
      token: admin.accessToken,
      body: { fileName: 'logo.png', fileSize: PNG_BYTES.length, mimeType: 'image/png' },
    });
    expect(url.status).toBe(200);
    const put = await fetch(`${a.base}${url.body.uploadUrl as string}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: PNG_BYTES,
    });
    expect(put.status).toBe(200);
    const saved = await call(b, 'POST', '/api/logo/save', {
      token: admin.accessToken,
      body: { logoPath: url.body.logoPath },
    });
    expect(saved.status).toBe(200);
    const served = await fetch(`${b.base}${url.body.logoPath as string}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
  });

  it('MFA set up on A (secret encrypted with the shared key) signs in on B', async () => {
    const s = await signIn(a, member(4));
    const enable = await call(a, 'POST', '/mfa/enable', { token: s.accessToken });
    expect(enable.status).toBe(200);
    const secret = (enable.body.secret as { base32: string }).base32;
    expect(
      (await call(a, 'POST', '/mfa/verify', { token: s.accessToken, body: { token: await generate({ secret }) } }))
        .status,
    ).toBe(200);
    const first = await signIn(b, member(4));
    expect(first.res.body.code).toBe('TOTP_REQUIRED');
    const code = await generate({ secret, epoch: Date.now() / 1000 + 30 });
    const second = await signIn(b, member(4), { mfaToken: code }, first.res.body.challengeToken as string);
    expect(second.res.status).toBe(200);
  });

  it('a user added through A shows at once in the list and a search on B, whose totals and list order were cached', async () => {
    const admin = await signIn(a, siteAdmin);
    const list = (query: string) =>
      call(b, 'GET', `/api/users?pageSize=50&page=1${query}`, { token: admin.accessToken });
    const before = await list('');
    expect(before.status).toBe(200);
    expect((await list('&searchText=newcomer')).body.totalRecords).toBe(0);
    // Cached on B now (10 s); A clears it at once, through Redis.
    const added = await call(a, 'POST', '/api/users/add', {
      token: admin.accessToken,
      body: { userEmail: 'newcomer@multi.test', userRoleIds: [4] },
    });
    expect(added.status).toBeLessThan(300);
    // Within a second (Redis delivers in milliseconds; without it B answers from its cache for 10 s).
    const deadline = Date.now() + 1_000;
    let total = 0;
    let found = 0;
    while (Date.now() < deadline) {
      total = (await list('')).body.totalRecords as number;
      found = (await list('&searchText=newcomer')).body.totalRecords as number;
      if (total === (before.body.totalRecords as number) + 1 && found === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect({ total, found }).toEqual({ total: (before.body.totalRecords as number) + 1, found: 1 });
  });

  it('a step-up on A counts on B at once, and an aged sign-in is refused on both (docs/product-rules.md §7)', async () => {
    const s = await signIn(a, siteAdmin);
    expect(s.res.status).toBe(200);
    // The fresh sign-in counts on B too.
    expect((await call(b, 'GET', '/api/users/export', { token: s.accessToken })).status).toBe(200);
    const sid = (JSON.parse(Buffer.from(s.accessToken.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
    await sql(
      databaseUrl,
      `UPDATE sessions SET "createdAt" = now() - interval '6 minutes', "authenticatedAt" = now() - interval '6 minutes' WHERE id = $1`,
      [sid],
    );
    for (const server of [a, b]) {
      const refused = await call(server, 'GET', '/api/users/export', { token: s.accessToken });
      expect([refused.status, refused.body.code]).toEqual([403, 'STEP_UP_REQUIRED']);
    }
    const proved = await call(a, 'POST', '/auth/step-up', { token: s.accessToken, body: { password: PASSWORD } });
    expect(proved.status).toBe(200);
    expect((await call(b, 'GET', '/api/users/export', { token: s.accessToken })).status).toBe(200);
  });

  it('a security policy saved on A holds on B at once: MFA required, address ranges, and B drops the organisation’s sockets', async () => {
    const [row] = await sql(
      databaseUrl,
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('POLICY', 'Policy Org', 10, 10, '["TAX_MANAGER","CA_VIEWER"]') RETURNING id`,
    );
    const policyOrg = Number(row.id);
    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
    for (const [email, role] of [
      ['policy.admin@multi.test', 2],
      ['policy.member@multi.test', 4],
    ] as const)
      await sql(
        databaseUrl,
        `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, $2, $3, 'Policy', 'User', $4, false)`,
        [policyOrg, email, hash, role],
      );
    const admin = await signIn(a, 'policy.admin@multi.test');
    const support = await signIn(a, 'support@multi.test');
    const m = await signIn(b, 'policy.member@multi.test');
    expect((await call(b, 'GET', '/api/notifications', { token: m.accessToken })).status).toBe(200);
    const socket = await connectSocket(b, m.accessToken);
    const gone = nextEvent(socket, 'disconnect');
    const path = `/api/organisations/${policyOrg}/security-policy`;

    expect((await call(a, 'PUT', path, { token: admin.accessToken, body: { mfaRequired: true } })).status).toBe(200);
    const refused = await call(b, 'GET', '/api/notifications', { token: m.accessToken });
    expect([refused.status, refused.body.code]).toEqual([403, 'MFA_ENROLMENT_REQUIRED']);
    expect((await call(b, 'GET', '/api/users/current', { token: m.accessToken })).body.isMFAEnforced).toBe(true);
    expect(await gone).toBe('io server disconnect');
    expect((await call(b, 'GET', path, { token: support.accessToken })).body.mfaRequired).toBe(true);

    // E-Support (never bound by ranges) allows an address range that excludes this machine.
    const ranges = await call(a, 'PUT', path, {
      token: support.accessToken,
      body: { mfaRequired: false, allowedIpRanges: ['192.0.2.0/24'] },
    });
    expect(ranges.status).toBe(200);
    for (const [server, token] of [
      [b, m.accessToken],
      [a, m.accessToken],
    ] as const) {
      const outside = await call(server, 'GET', '/api/notifications', { token });
      expect([outside.status, outside.body.code]).toEqual([403, 'IP_NOT_ALLOWED']);
    }
    const refresh = await call(b, 'POST', '/refresh', { cookie: m.cookie });
    expect([refresh.status, refresh.body.code]).toEqual([403, 'IP_NOT_ALLOWED']);
    // Lifted on B: A lets the member in again at once.
    expect((await call(b, 'PUT', path, { token: support.accessToken, body: { allowedIpRanges: [] } })).status).toBe(
      200,
    );
    expect((await call(a, 'GET', '/api/notifications', { token: m.accessToken })).status).toBe(200);
  });

  it('SCIM: a provisioning token revoked on A is refused by B at once; a user disabled through A loses its socket on B', async () => {
    const admin = await signIn(a, siteAdmin);
    const made = await call(a, 'POST', '/api/scim-tokens', { token: admin.accessToken, body: { name: 'Multi' } });
    expect(made.status).toBe(201);
    const scim = { authorization: `Bearer ${made.body.token as string}`, 'content-type': 'application/scim+json' };
    expect((await call(b, 'GET', '/scim/v2/Users?count=1', { headers: scim })).status).toBe(200);

    const s = await signIn(a, member(6));
    const socket = await connectSocket(b, s.accessToken);
    const gone = nextEvent(socket, 'disconnect');
    const [target] = await sql(databaseUrl, 'SELECT id FROM users WHERE email = $1', [member(6)]);
    const patched = await fetch(`${a.base}/scim/v2/Users/${Number(target.id)}`, {
      method: 'PATCH',
      headers: scim,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      }),
    });
    expect(patched.status).toBe(200);
    await gone;
    expect((await call(b, 'GET', '/api/users/current', { token: s.accessToken })).status).toBe(401);

    const revoked = await call(a, 'DELETE', `/api/scim-tokens/${made.body.id as number}`, { token: admin.accessToken });
    expect(revoked.status).toBe(200);
    expect((await call(b, 'GET', '/scim/v2/Users?count=1', { headers: scim })).status).toBe(401);
  });

  it('an API key made on A works on B within its scope, and once revoked on A is refused by both at once', async () => {
    const admin = await signIn(a, siteAdmin);
    const made = await call(a, 'POST', '/api/api-keys', {
      token: admin.accessToken,
      body: { name: 'Multi', scopes: ['users:read'] },
    });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    expect((await call(b, 'GET', '/api/users', { token: key })).status).toBe(200);
    expect((await call(a, 'GET', '/auth/organisation', { token: key })).status).toBe(200);
    expect((await call(b, 'GET', '/api/audit-events', { token: key })).body.code).toBe('INSUFFICIENT_SCOPE');

    const revoked = await call(a, 'DELETE', `/api/api-keys/${made.body.id as number}`, { token: admin.accessToken });
    expect(revoked.status).toBe(200);
    expect((await call(b, 'GET', '/api/users', { token: key })).status).toBe(401);
    expect((await call(a, 'GET', '/api/users', { token: key })).status).toBe(401);
  });

  /** The organisation's connection and its verified domain, as the Single Sign-On page leaves them. */
  async function connection(fields: Record<string, unknown>, domain: string): Promise<number> {
    await sql(
      databaseUrl,
      `INSERT INTO organisation_domains ("organisationId", domain, "txtValue", "verifiedDomain", "verifiedAt") VALUES ($1, $2, 'v', $2, now()) ON CONFLICT DO NOTHING`,
      [org, domain],
    );
    const names = Object.keys(fields);
    const [row] = await sql(
      databaseUrl,
      `INSERT INTO sso_connections ("organisationId", name, ${names.map((n) => `"${n}"`).join(', ')}) VALUES ($1, 'Corporate', ${names.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING id`,
      [org, ...Object.values(fields)],
    );
    return Number(row.id);
  }

  it('a SAML response is accepted once across instances, whichever receives it, and B knows the request A made', async () => {
    const idp = await startTestIdp('multi');
    const id = await connection(
      {
        protocol: 'saml',
        samlMetadataXml: idp.metadataXml,
        samlEntityId: idp.entityId,
        samlSsoUrl: idp.ssoUrl,
        samlCertificates: JSON.stringify([/<ds:X509Certificate>([^<]+)</.exec(idp.metadataXml)![1]]),
      },
      'multi.test',
    );
    const audience = `${PUBLIC_URL}/auth/saml/${id}/metadata`;
    const acsUrl = `${PUBLIC_URL}/auth/saml/${id}/acs`;
    const acs = (server: BuiltServer, response: string) =>
      fetch(`${server.base}/auth/saml/${id}/acs`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLResponse: response }),
      });
    const begin = async () =>
      idp.readRequest((await fetch(`${a.base}/auth/sso/${id}`, { redirect: 'manual' })).headers.get('location')!);
    let req = await begin();
    const response = idp.respond({ inResponseTo: req.id, acsUrl, audience, nameId: 'm5', email: member(5) });
    const both = await Promise.all([acs(a, response), acs(b, response)]);
    expect(both.map((r) => r.headers.get('location')!.startsWith('/logIn?ssoError=')).sort()).toEqual([false, true]);
    expect(both.filter((r) => r.headers.get('location') === '/')).toHaveLength(1);
    req = await begin();
    const onB = await acs(b, idp.respond({ inResponseTo: req.id, acsUrl, audience, nameId: 'm5', email: member(5) }));
    expect(onB.headers.get('location')).toBe('/');
  });

  it('a back-channel logout received by A ends the session at once on B, socket included', async () => {
    const provider = await startOrgOidcProvider([
      {
        client_id: 'multi',
        client_secret: 'multi-client-secret',
        redirect_uris: [`${PUBLIC_URL}/callback`],
        // The provider builds the logout token for this address; the test hands it to instance A itself.
        backchannel_logout_uri: `${PUBLIC_URL}/auth/sso/0/backchannel-logout`,
      },
    ]);
    try {
      const id = await connection(
        {
          protocol: 'oidc',
          oidcIssuer: provider.issuer,
          oidcClientId: 'multi',
          oidcClientSecret: encrypt('multi-client-secret', encryptionKey),
        },
        'multi.test',
      );
      const start = await fetch(`${a.base}/auth/sso/${id}`, { redirect: 'manual' });
      const transaction = start.headers
        .getSetCookie()
        .find((c) => c.startsWith('ssoTransaction='))!
        .split(';')[0];
      const back = new URL(await signInAtProvider(start.headers.get('location')!, member(5)));
      const callback = await fetch(`${a.base}${back.pathname}${back.search}`, {
        redirect: 'manual',
        headers: { cookie: transaction },
      });
      expect(callback.headers.get('location')).toBe('/');
      const cookie = callback.headers
        .getSetCookie()
        .find((c) => c.startsWith('refreshToken='))!
        .split(';')[0];
      const token = (await call(b, 'POST', '/refresh', { cookie })).body.newAccessToken as string;
      const socket = await connectSocket(b, token);
      const gone = nextEvent(socket, 'disconnect');
      const [sso] = await sql(databaseUrl, 'SELECT "providerSessionId" FROM sso_sessions WHERE "connectionId" = $1', [
        id,
      ]);
      const issued = await fetch(
        `${provider.issuer}/test/backchannel?client_id=multi&sub=${encodeURIComponent(member(5))}&sid=${encodeURIComponent(String(sso.providerSessionId))}`,
      );
      const { logout_token: logoutToken } = (await issued.json()) as { logout_token: string };
      const res = await fetch(`${a.base}/auth/sso/${id}/backchannel-logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: logoutToken }),
      });
      expect(res.status).toBe(200);
      await gone;
      expect((await call(b, 'GET', '/api/users/current', { token })).status).toBe(401);
      // The same token at B: its jti was used at A.
      const again = await fetch(`${b.base}/auth/sso/${id}/backchannel-logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: logoutToken }),
      });
      expect(again.status).toBe(400);
    } finally {
      provider.stop();
    }
  });
  it('insights count sign-ins on both instances exactly, and a session ended on B from My Security closes on A (docs/product-rules.md §10)', async () => {
    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
    const [row] = await sql(
      databaseUrl,
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('MULTI10', 'Insights Org', 50, 50, '["TAX_MANAGER"]') RETURNING id`,
    );
    const insightsOrg = Number(row.id);
    const emails = ['insights.admin@multi.test', ...Array.from({ length: 4 }, (_, i) => `insights${i}@multi.test`)];
    for (const [i, email] of emails.entries())
      await sql(
        databaseUrl,
        `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, $2, $3, 'Multi', 'User', $4, false)`,
        [insightsOrg, email, hash, i === 0 ? 2 : 4],
      );
    // Twenty sign-ins and four failures, in parallel, half through each instance.
    const attempts = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => signIn(i % 2 ? a : b, emails[1 + (i % 4)])),
      ...Array.from({ length: 4 }, (_, i) =>
        call(i % 2 ? a : b, 'POST', '/auth/login', {
          body: { username: emails[1 + i], password: 'Wrong-Pass-1', acceptToS: true },
        }),
      ),
    ]);
    expect(attempts.slice(0, 20).map((x) => (x as { res: Json }).res.status)).toEqual(Array(20).fill(200));
    const admin = await signIn(a, emails[0]);
    const day = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Australia/Sydney',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
    const report = await call(b, 'GET', `/api/insights?from=${day}&to=${day}`, { token: admin.accessToken });
    expect(report.status).toBe(200);
    const [trail] = await sql(
      databaseUrl,
      `SELECT SUM(CASE WHEN type = 'SIGN_IN_SUCCEEDED' THEN 1 ELSE 0 END)::int AS succeeded,
              SUM(CASE WHEN type = 'SIGN_IN_FAILED' THEN 1 ELSE 0 END)::int AS failed
       FROM audit_events WHERE "organisationId" = $1`,
      [insightsOrg],
    );
    expect(trail).toEqual({ succeeded: 21, failed: 4 });
    expect((report.body.signIns as Array<Record<string, unknown>>)[0]).toMatchObject({ succeeded: 21, failed: 4 });

    // One member, two browsers: the session opened on A is ended through B.
    const here = await signIn(b, emails[1]);
    const there = await signIn(a, emails[1]);
    const socket = await connectSocket(a, there.accessToken);
    const gone = nextEvent(socket, 'disconnect');
    const mine = await call(b, 'GET', '/api/me/sessions', { token: there.accessToken });
    const id = (mine.body as unknown as Array<{ id: string; current: boolean }>).find((x) => x.current)!.id;
    expect((await call(b, 'DELETE', `/api/me/sessions/${id}`, { token: here.accessToken })).status).toBe(200);
    await gone;
    expect((await call(a, 'GET', '/api/users/current', { token: there.accessToken })).status).toBe(401);
    expect((await call(a, 'GET', '/api/users/current', { token: here.accessToken })).status).toBe(200);
  });
});
