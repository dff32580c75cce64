import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { createOrganisation, createUser, fromResponse, LoggedIn } from '../../utils/factories';
import { ageSession } from '../../utils/step-up';
import { Role } from '../../../src/shared/roles';
import { RunningProvider, signInAtProvider, startOidcProvider } from '../../utils/identity-providers/oidc';
import { createTestApp, TestApp } from '../../utils/test-app';

describe('Corporate login against a real OpenID provider (docs/product-rules.md §3)', () => {
  let provider: RunningProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await startOidcProvider('http://portal.test/callback');
    t = await createTestApp({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
    });
  });
  afterAll(async () => {
    await t?.close();
    provider?.stop();
  });

  /** GET /auth/sso, the person signs in at the provider, the browser comes back to /callback. */
  async function corporateLogin(email: string) {
    const start = await request(t.http).get('/auth/sso').expect(302);
    const authorize = new URL(start.headers.location);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('scope')).toBe('openid email');
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const transactionCookie = ([] as string[])
      .concat(start.headers['set-cookie'])
      .find((c) => c.startsWith('ssoTransaction='))!
      .split(';')[0];
    const back = new URL(await signInAtProvider(authorize.href, email));
    expect(back.pathname).toBe('/callback');
    return { back, transactionCookie };
  }

  it('signs in an SSO account of an SSO organisation and ends on the root', async () => {
    const org = await createOrganisation(t, { isSSOEnabled: true });
    const user = await createUser(t, org, { isSSO: true, passwordHash: null });
    const { back, transactionCookie } = await corporateLogin(user.email);
    const callback = await request(t.http)
      .get(`${back.pathname}${back.search}`)
      .set('Cookie', transactionCookie)
      .expect(302);
    expect(callback.headers.location).toBe('/');
    const { cookie } = fromResponse(callback);
    const refreshed = await request(t.http).post('/refresh').set('Cookie', cookie).expect(200);
    const me = await request(t.http)
      .get('/api/users/current')
      .set('Authorization', `Bearer ${refreshed.body.newAccessToken}`)
      .expect(200);
    expect(me.body.email).toBe(user.email);
    // Audit: exactly one 'SSO sign-in' event, by and about the account.
    const events = await t.db.getRepository(AuditEvent).findBy({ actorId: user.id });
    expect(events.map((e) => [e.type, e.targetId, e.organisationId])).toEqual([['SSO_SIGN_IN', user.id, org.id]]);
  });

  it('refuses an account that is not enabled for SSO, and one whose organisation has no SSO', async () => {
    const ssoOrg = await createOrganisation(t, { isSSOEnabled: true });
    const plainUser = await createUser(t, ssoOrg, { isSSO: false });
    const noSsoOrg = await createOrganisation(t, { isSSOEnabled: false });
    const flaggedUser = await createUser(t, noSsoOrg, { isSSO: true });
    for (const u of [plainUser, flaggedUser]) {
      const { back, transactionCookie } = await corporateLogin(u.email);
      const res = await request(t.http)
        .get(`${back.pathname}${back.search}`)
        .set('Cookie', transactionCookie)
        .expect(302);
      expect(res.headers.location).toMatch(/^\/logIn\?ssoError=/);
      expect(decodeURIComponent(res.headers.location)).toContain('not enabled for corporate login');
      expect(
        ([] as string[])
          .concat(res.headers['set-cookie'] ?? [])
          .some((c) => c.startsWith('refreshToken=') && !c.startsWith('refreshToken=;')),
      ).toBe(false);
    }
  });

  it('refuses a callback without the browser-bound transaction cookie (CSRF), or with a replayed code', async () => {
    const org = await createOrganisation(t, { isSSOEnabled: true });
    const user = await createUser(t, org, { isSSO: true });
    const { back, transactionCookie } = await corporateLogin(user.email);
    const noCookie = await request(t.http).get(`${back.pathname}${back.search}`).expect(302);
    expect(noCookie.headers.location).toMatch(/ssoError=/);
    await request(t.http).get(`${back.pathname}${back.search}`).set('Cookie', transactionCookie).expect(302);
    const replay = await request(t.http)
      .get(`${back.pathname}${back.search}`)
      .set('Cookie', transactionCookie)
      .expect(302);
    expect(replay.headers.location).toMatch(/ssoError=/);
  });

  /** An SSO site admin signed in through the provider, with the session's sign-in moved an hour back. */
  async function agedSsoSession() {
    const org = await createOrganisation(t, { isSSOEnabled: true });
    const user = await createUser(t, org, { isSSO: true, passwordHash: null, roleId: Role.SITE_ADMIN });
    const { back, transactionCookie } = await corporateLogin(user.email);
    const callback = await request(t.http)
      .get(`${back.pathname}${back.search}`)
      .set('Cookie', transactionCookie)
      .expect(302);
    const refreshed = await request(t.http).post('/refresh').set('Cookie', fromResponse(callback).cookie).expect(200);
    const accessToken = refreshed.body.newAccessToken as string;
    const s: LoggedIn = { accessToken, cookie: '', auth: { Authorization: `Bearer ${accessToken}` } };
    await ageSession(t, s, 61);
    return { user, org, s };
  }

  /** POST /auth/step-up/sso, then the round trip through the provider as `email`: where the callback sends the browser. */
  async function stepUpAtProvider(s: LoggedIn, email: string) {
    const { body } = await request(t.http)
      .post('/auth/step-up/sso')
      .set(s.auth)
      .send({ returnTo: '/users?page=2' })
      .expect(200);
    const start = await request(t.http).get(body.url).expect(302);
    const authorize = new URL(start.headers.location);
    expect(authorize.searchParams.get('prompt')).toBe('login');
    expect(authorize.searchParams.get('max_age')).toBe('0');
    const transactionCookie = ([] as string[])
      .concat(start.headers['set-cookie'])
      .find((c) => c.startsWith('ssoTransaction='))!
      .split(';')[0];
    const back = new URL(await signInAtProvider(authorize.href, email));
    const done = await request(t.http)
      .get(`${back.pathname}${back.search}`)
      .set('Cookie', transactionCookie)
      .expect(302);
    // A step-up opens no session.
    expect(([] as string[]).concat(done.headers['set-cookie'] ?? []).some((c) => /^refreshToken=[^;]/.test(c))).toBe(
      false,
    );
    return done.headers.location as string;
  }

  it('an SSO account steps up at its provider (prompt=login, max_age=0) and comes back where it was', async () => {
    const { user, s } = await agedSsoSession();
    expect((await request(t.http).get('/api/users/export').set(s.auth).expect(403)).body.code).toBe('STEP_UP_REQUIRED');
    expect(await stepUpAtProvider(s, user.email)).toBe('/users?page=2&stepUp=done');
    await request(t.http).get('/api/users/export').set(s.auth).expect(200);
    const events = await t.db.getRepository(AuditEvent).findBy({ actorId: user.id, type: 'STEP_UP' });
    expect(events.map((e) => e.summary)).toEqual(['Identity confirmed with the corporate identity provider']);
  });

  it("the provider's answer for another account marks nothing; a forged or expired ticket goes nowhere", async () => {
    const { org, s } = await agedSsoSession();
    const other = await createUser(t, org, { isSSO: true, passwordHash: null });
    const location = await stepUpAtProvider(s, other.email);
    expect(location).toMatch(/^\/users\?page=2&stepUpError=/);
    expect(new URL(location, 'http://x').searchParams.get('stepUpError')).toContain('another account');
    expect((await request(t.http).get('/api/users/export').set(s.auth).expect(403)).body.code).toBe('STEP_UP_REQUIRED');
    const forged = await request(t.http).get('/auth/sso?prompt=login&stepUp=not-a-ticket').expect(302);
    expect(forged.headers.location).toMatch(/^\/logIn\?ssoError=/);
  });

  it('tells the client SSO is on', async () => {
    const info = await request(t.http).get('/api/app-info').expect(200);
    expect(info.body.ssoEnabled).toBe(true);
    await t.db.getRepository(Organisation).count();
  });
});

describe('Corporate login switched off', () => {
  it('hides the button (app-info) and answers /auth/sso with 404', async () => {
    const t = await createTestApp();
    try {
      const info = (await request(t.http).get('/api/app-info').expect(200)).body;
      expect(info.ssoEnabled).toBe(false);
      // Nor are private networks allowed: the applications' registration form follows the strict rule.
      expect(info.allowPrivateNetworks).toBe(false);
      await request(t.http).get('/auth/sso').expect(404);
    } finally {
      await t.close();
    }
  });
});
