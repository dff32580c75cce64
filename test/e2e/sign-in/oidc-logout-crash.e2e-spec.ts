import * as argon2 from 'argon2';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { Database } from 'sqlite3';
import { Role } from '../../../src/shared/roles';
import { buildServer, BuiltServer, startServer, stopServer } from '../../utils/servers/built-server.js';
import { Browser, freePort } from '../../utils/identity-providers/relying-party';
import { WebhookReceiver } from '../../utils/servers/webhook-receiver';

const SUPPORT_EMAIL = 'oidc-crash@vendor.test';
const SUPPORT_PASSWORD = 'Crash-Oidc-Pass-1';
const MEMBER_PASSWORD = 'Crash-Member-Pass-1';
const CALLBACK = 'http://127.0.0.1:9/callback';
const BACKCHANNEL_LOGOUT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * How soon after the restart the logout token must arrive: the logout sweep's first run (3 s after the start) plus
 * the first step of WEBHOOK_RETRY_SCHEDULE below (1 s, when the attempt before the kill was refused) is 4 s; the
 * bound is the 10 s the product promises for any session end.
 */
const DELIVERY_BOUND_MS = 10_000;
/**
 * When the server dies during the attempt itself, the work it claimed is taken up again once its lease lapses (20 s
 * after the claim), by the retry pass that runs with every sweep (3 s).
 */
const IN_FLIGHT_BOUND_MS = 30_000;
/** Longer than a sweep (3 s) and a retry step (1 s): a second delivery would have come by then. */
const QUIET_MS = 4_500;

/** Reads one row of the running server's SQLite file. */
function row<T>(dataDir: string, sql: string, params: unknown[]): Promise<T | undefined> {
  const db = new Database(join(dataDir, 'app.sqlite'));
  db.configure('busyTimeout', 5000);
  return new Promise((resolve, reject) =>
    db.get(sql, params, (err: Error | null, found: T | undefined) => {
      db.close();
      if (err) reject(err);
      else resolve(found);
    }),
  );
}

/** Writes one row into the running server's SQLite file, as a fixture would; answers its id. */
function insert(dataDir: string, sql: string, params: unknown[]): Promise<number> {
  const db = new Database(join(dataDir, 'app.sqlite'));
  db.configure('busyTimeout', 5000);
  return new Promise((resolve, reject) =>
    db.run(sql, params, function (this: { lastID: number }, err: Error | null) {
      db.close();
      if (err) reject(err);
      else resolve(this.lastID);
    }),
  );
}

/**
 * An acknowledged end of a portal session survives kill -9 (docs/oidc-provider.md, "Logout"): the member's logout
 * is answered 200 while the application's back-channel logout URI refuses connections, the built server is killed
 * at once and restarted on the same DATA_DIR with the application listening; the application then receives one
 * logout token, verified against the provider's JWKS, within the bound, and its refresh token stays refused.
 */
describe('Back-channel logout across kill -9', () => {
  let dataDir: string;
  let mainJs: string;
  let server: BuiltServer | undefined;
  const rx = new WebhookReceiver();
  beforeAll(() => {
    mainJs = buildServer();
    dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-oidc-crash-'));
  }, 300_000);
  afterAll(async () => {
    if (server) await stopServer(server, 'SIGKILL');
    await rx.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (port: number) =>
    startServer(mainJs, {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'silent',
      BOOTSTRAP_SUPPORT_EMAIL: SUPPORT_EMAIL,
      BOOTSTRAP_SUPPORT_PASSWORD: SUPPORT_PASSWORD,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s',
    });

  /** An application with a back-channel logout URI on appPort, and a member of a new organisation signed into it. */
  async function memberInApplication(issuer: string, appPort: number, code: string) {
    const support = await fetch(`${issuer}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: SUPPORT_EMAIL, password: SUPPORT_PASSWORD, acceptToS: true }),
    });
    expect(support.status).toBe(200);
    const supportToken = ((await support.json()) as { accessToken: string }).accessToken;
    const registered = await fetch(`${issuer}/api/oidc-clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${supportToken}` },
      body: JSON.stringify({
        name: `Tax manager ${code}`,
        type: 'confidential',
        redirectUris: [CALLBACK],
        backchannelLogoutUri: `http://127.0.0.1:${appPort}/logout`,
      }),
    });
    expect(registered.status).toBe(201);
    const app = (await registered.json()) as { clientId: string; clientSecret: string };

    const orgId = await insert(
      dataDir,
      `INSERT INTO organisations (code, name, allowedUsersNumber, maxConcurrentUsers, applications) VALUES (?, ?, 10, 10, ?)`,
      [code, `${code} Org`, JSON.stringify(['TAX_MANAGER', 'CA_VIEWER'])],
    );
    const memberId = await insert(
      dataDir,
      `INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, 'Crash', 'Member', ?, 0)`,
      [
        orgId,
        `member@${code.toLowerCase()}.test`,
        await argon2.hash(MEMBER_PASSWORD, { type: argon2.argon2id }),
        Role.ANALYST,
      ],
    );

    // The member signs in at the portal, then into the application: code + PKCE, so the session is linked to it.
    const browser = new Browser(issuer);
    const signedIn = await browser.request('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: `member@${code.toLowerCase()}.test`,
        password: MEMBER_PASSWORD,
        acceptToS: true,
      }),
    });
    expect(signedIn.status).toBe(200);
    const memberToken = ((await signedIn.json()) as { accessToken: string }).accessToken;
    const config = await oidc.discovery(
      new URL(issuer),
      app.clientId,
      { client_secret: app.clientSecret },
      oidc.ClientSecretBasic(app.clientSecret),
      { execute: [oidc.allowInsecureRequests] },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorization = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid email profile organisation offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      prompt: 'consent',
    });
    const { location } = await browser.follow(authorization.href);
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(location!), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const sid = decodeJwt(tokens.id_token!).sid;
    expect(typeof sid).toBe('string');
    // The refresh token works while the portal session lives (rotated: the new one is the one kept).
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toEqual(expect.any(String));

    return { app, config, memberId, memberToken, refreshed, sid };
  }

  it('delivers the logout token after the restart, once, and the refresh token stays refused', async () => {
    // The issuer is PUBLIC_URL, so the restart listens on the same port; the application's port refuses for now.
    const [port, appPort] = [await freePort(), await freePort()];
    server = await start(port);
    const issuer = server.base;

    const { app, config, memberId, memberToken, refreshed, sid } = await memberInApplication(
      issuer,
      appPort,
      'OIDCCRASH',
    );

    // The portal session ends; the moment the end is acknowledged, the server dies.
    const logout = await fetch(`${issuer}/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${memberToken}` },
    });
    expect(logout.status).toBe(200);
    await stopServer(server, 'SIGKILL');
    server = undefined;

    await rx.start(appPort);
    server = await start(port);
    const restarted = Date.now();
    const [first] = await rx.waitFor('/logout', 1, DELIVERY_BOUND_MS);
    expect(first.at - restarted).toBeLessThanOrEqual(DELIVERY_BOUND_MS);
    await new Promise((r) => setTimeout(r, QUIET_MS));
    const received = rx.on('/logout');
    expect(received).toHaveLength(1);

    expect(received[0].headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    const logoutToken = new URLSearchParams(received[0].body).get('logout_token');
    expect(logoutToken).toEqual(expect.any(String));
    const jwks = createRemoteJWKSet(new URL(`${issuer}/oidc/jwks`));
    const { payload } = await jwtVerify(logoutToken!, jwks, { issuer, audience: app.clientId });
    expect(payload.sub).toBe(String(memberId));
    expect(payload.sid).toBe(sid);
    expect(payload.events).toEqual({ [BACKCHANNEL_LOGOUT]: {} });
    expect(payload.nonce).toBeUndefined();

    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  }, 120_000);

  it('sends again, after the restart, the logout token that was in flight when the server died', async () => {
    // The server from the first test runs on; this application's receiver accepts connections and never answers.
    const issuer = server!.base;
    const appPort = await freePort();
    const held = new Set<Socket>();
    const hanging = createServer((socket) => {
      held.add(socket.on('error', () => undefined));
    }).listen(appPort, '127.0.0.1');
    const { app, memberToken } = await memberInApplication(issuer, appPort, 'OIDCFLIGHT');
    const logout = await fetch(`${issuer}/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${memberToken}` },
    });
    expect(logout.status).toBe(200);
    // Killed once the instance has claimed the link and is waiting on the application's answer.
    const deadline = Date.now() + 10_000;
    let claimed: { loggedOutAt: string | null } | undefined;
    do {
      await new Promise((r) => setTimeout(r, 100));
      claimed = await row(dataDir, 'SELECT loggedOutAt FROM oidc_session_links WHERE clientId = ?', [app.clientId]);
    } while (!claimed?.loggedOutAt && Date.now() < deadline);
    expect(claimed?.loggedOutAt).toBeTruthy();
    await stopServer(server!, 'SIGKILL');
    server = undefined;
    for (const socket of held) socket.destroy();
    await new Promise<void>((r) => hanging.close(() => r()));

    const receiver = new WebhookReceiver();
    await receiver.start(appPort);
    try {
      server = await start(Number(new URL(issuer).port));
      const restarted = Date.now();
      const [delivered] = await receiver.waitFor('/logout', 1, IN_FLIGHT_BOUND_MS);
      expect(delivered.at - restarted).toBeLessThanOrEqual(IN_FLIGHT_BOUND_MS);
      const { payload } = await jwtVerify(
        new URLSearchParams(delivered.body).get('logout_token')!,
        createRemoteJWKSet(new URL(`${issuer}/oidc/jwks`)),
        { issuer, audience: app.clientId },
      );
      expect(payload.events).toEqual({ [BACKCHANNEL_LOGOUT]: {} });
    } finally {
      await receiver.stop();
    }
  }, 150_000);
});
