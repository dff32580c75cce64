import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { Client } from 'pg';
import { BuiltServer, buildServer, startServer, stopServer } from '../utils/servers/built-server.js';
import { Browser } from '../utils/identity-providers/relying-party';
import { WebhookReceiver } from '../utils/servers/webhook-receiver';

/**
 * The portal as an OpenID provider across two built server processes on one PostgreSQL and one Redis, behind one
 * issuer (docs/oidc-provider.md): a code issued at A is exchanged at B and its ID token verifies against B's JWKS;
 * the refresh token works at A; a force log-off at B stops the refresh at A at once and sends the application a
 * logout token; a key rotated at A is published and used by B at once. Needs TEST_DATABASE_URL and TEST_REDIS_URL.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
if (!ADMIN_URL || !REDIS_URL)
  throw new Error(
    'The multi-instance suites need TEST_DATABASE_URL and TEST_REDIS_URL (see README, "Several instances").',
  );

const ISSUER = 'http://portal.multi.test';
const PASSWORD = 'Multi-Oidc-Pass-1';
const SUPPORT = 'support@multi-oidc.test';
const SITE_ADMIN = 'site.admin@multi-oidc.test';
const MEMBER = 'member@multi-oidc.test';
const CALLBACK = 'http://127.0.0.1:9/callback';
const SCOPES = 'openid email profile organisation offline_access';

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

/** The issuer's URL as the given instance serves it (both answer for the one issuer, as behind a load balancer). */
function at(server: BuiltServer, url: string): string {
  return url.startsWith(ISSUER) ? `${server.base}${url.slice(ISSUER.length)}` : url;
}

/** A relying party whose every call to the issuer goes to this instance. */
function relyingParty(server: BuiltServer, clientId: string, secret: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(ISSUER), clientId, { client_secret: secret }, oidc.ClientSecretBasic(secret), {
    execute: [oidc.allowInsecureRequests],
    [oidc.customFetch]: (url, options) => fetch(at(server, url), options as RequestInit),
  });
}

/** A member's browser signed in at this instance's /auth/login (the refresh cookie and its /oidc/ copy kept). */
async function signedInBrowser(server: BuiltServer): Promise<Browser> {
  const browser = new Browser(server.base);
  const res = await browser.request('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: MEMBER, password: PASSWORD, acceptToS: true }),
  });
  if (res.status !== 200) throw new Error(`member sign-in: ${res.status} ${await res.text()}`);
  return browser;
}

/** Authorizes at `server` with PKCE in this browser, following the issuer's redirects there: the callback URL. */
async function authorize(server: BuiltServer, config: oidc.Configuration, browser: Browser) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  let url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: SCOPES,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    prompt: 'consent',
  }).href;
  for (let hops = 0; hops < 10 && !url.startsWith(CALLBACK); hops++) {
    const res = await browser.request(at(server, url));
    const location = res.headers.get('location');
    if (!location) throw new Error(`authorize stopped at ${url}: ${res.status} ${await res.text()}`);
    url = new URL(location, ISSUER).href;
  }
  expect(url.startsWith(`${CALLBACK}?`)).toBe(true);
  return { callback: new URL(url), verifier, state };
}

describe('The OpenID provider on several instances', () => {
  let databaseUrl: string;
  let databaseName: string;
  const dataDirs: string[] = [];
  let a: BuiltServer;
  let b: BuiltServer;
  const receiver = new WebhookReceiver();
  let app: { clientId: string; clientSecret: string };
  let member: number;

  beforeAll(async () => {
    const mainJs = buildServer();
    databaseName = `multi_oidc_${randomBytes(4).toString('hex')}`;
    await sql(ADMIN_URL, `CREATE DATABASE ${databaseName}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    const redisUrl = new URL(REDIS_URL);
    redisUrl.pathname = `/${1 + Math.floor(Math.random() * 15)}`;
    const redis = new Redis(redisUrl.toString());
    await redis.flushdb();
    await redis.quit();
    await receiver.start();
    const shared = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl.toString(),
      JWT_SECRET: randomBytes(48).toString('base64'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      BOOTSTRAP_SUPPORT_EMAIL: SUPPORT,
      BOOTSTRAP_SUPPORT_PASSWORD: PASSWORD,
      PUBLIC_URL: ISSUER,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s',
    };
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'tax-portal-multi-oidc-'));
      dataDirs.push(dir);
      return { ...shared, DATA_DIR: dir };
    };
    [a, b] = await Promise.all([startServer(mainJs, env()), startServer(mainJs, env())]);
    const [row] = await sql(
      databaseUrl,
      `INSERT INTO organisations (code, name, "allowedUsersNumber", "maxConcurrentUsers", applications) VALUES ('OIDCM', 'Oidc Multi Org', 50, 50, '["TAX_MANAGER","CA_VIEWER"]') RETURNING id`,
    );
    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
    for (const [email, role] of [
      [SITE_ADMIN, 2],
      [MEMBER, 6],
    ] as const)
      await sql(
        databaseUrl,
        `INSERT INTO users ("organisationId", email, "passwordHash", "firstName", "lastName", "roleId", "isMFAEnforced") VALUES ($1, $2, $3, 'Multi', 'User', $4, false)`,
        [Number(row.id), email, hash, role],
      );
    member = Number((await sql(databaseUrl, 'SELECT id FROM users WHERE email = $1', [MEMBER]))[0].id);
    // Registered through A by E-Support, signed in just now (a fresh sign-in is the step-up this call needs).
    const registered = await call(a, 'POST', '/api/oidc-clients', {
      token: await signIn(a, SUPPORT),
      body: {
        name: 'Tax manager',
        type: 'confidential',
        redirectUris: [CALLBACK],
        backchannelLogoutUri: `${receiver.url}/logout`,
      },
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
    app = registered.body as { clientId: string; clientSecret: string };
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((s) => stopServer(s)));
    await receiver.stop();
    await sql(ADMIN_URL!, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a code from A is exchanged at B, refreshed at A; a force log-off at B stops A at once and tells the application', async () => {
    const [rpA, rpB] = await Promise.all([
      relyingParty(a, app.clientId, app.clientSecret),
      relyingParty(b, app.clientId, app.clientSecret),
    ]);
    const { callback, verifier, state } = await authorize(a, rpA, await signedInBrowser(a));
    const tokens = await oidc.authorizationCodeGrant(rpB, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const jwksB = createRemoteJWKSet(new URL(`${b.base}/oidc/jwks`));
    const { payload } = await jwtVerify(tokens.id_token!, jwksB, { issuer: ISSUER, audience: app.clientId });
    expect(payload.sub).toBe(String(member));
    expect(payload.email).toBe(MEMBER);
    const sid = payload.sid;
    expect(typeof sid).toBe('string');

    const refreshed = await oidc.refreshTokenGrant(rpA, tokens.refresh_token!);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    receiver.requests.length = 0;
    const off = await call(b, 'POST', '/api/userLoginActivities/force-logoff', {
      token: await signIn(b, SITE_ADMIN),
      body: { userIds: [member] },
    });
    expect(off.status).toBe(200);
    await expect(oidc.refreshTokenGrant(rpA, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    const deadline = Date.now() + 10_000;
    let logout: Record<string, unknown> | undefined;
    while (!logout && Date.now() < deadline) {
      for (const r of receiver.on('/logout')) {
        const token = new URLSearchParams(r.body).get('logout_token')!;
        const verified = await jwtVerify(token, jwksB, { issuer: ISSUER, audience: app.clientId });
        if (verified.payload.sid === sid) logout = verified.payload;
      }
      if (!logout) await new Promise((r) => setTimeout(r, 100));
    }
    expect(logout).toBeDefined();
    expect(logout!.sub).toBe(String(member));
    expect(logout!.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
  }, 60_000);

  it('a key rotated at A is published by B at once and signs the ID tokens B issues', async () => {
    const rotated = await call(a, 'POST', '/api/oidc/keys/rotate', { token: await signIn(a, SUPPORT) });
    expect(rotated.status).toBe(200);
    const kid = rotated.body.kid as string;
    const published = (await (await fetch(`${b.base}/oidc/jwks`)).json()) as { keys: Array<{ kid: string }> };
    expect(published.keys.map((k) => k.kid)).toContain(kid);

    const rpB = await relyingParty(b, app.clientId, app.clientSecret);
    const { callback, verifier, state } = await authorize(b, rpB, await signedInBrowser(b));
    const tokens = await oidc.authorizationCodeGrant(rpB, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(decodeProtectedHeader(tokens.id_token!).kid).toBe(kid);
    const jwksB = createRemoteJWKSet(new URL(`${b.base}/oidc/jwks`));
    await jwtVerify(tokens.id_token!, jwksB, { issuer: ISSUER, audience: app.clientId });
    expect(decodeJwt(tokens.id_token!).sub).toBe(String(member));
  }, 60_000);
});
