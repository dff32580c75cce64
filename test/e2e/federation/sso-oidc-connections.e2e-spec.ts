import request from 'supertest';
import { IsNull } from 'typeorm';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { encrypt } from '../../../src/platform/crypto/secrets';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { SsoSession } from '../../../src/identity/federation/entities/sso-session.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, fromResponse, login } from '../../utils/factories';
import { signInAtProvider, startOrgOidcProvider } from '../../utils/identity-providers/oidc';
import { verifyDomain } from '../../utils/identity-providers/sso';
import { createTestApp, TestApp } from '../../utils/test-app';

let serial = 0;
const uniqueDomain = () => `oidc${++serial}-${Date.now().toString(36)}.example`;

const CALLBACK = 'http://portal.test/callback';
const clients = [
  {
    client_id: 'portal-a',
    client_secret: 'secret-of-portal-a',
    redirect_uris: [CALLBACK],
    post_logout_redirect_uris: ['http://portal.test/logIn'],
    backchannel_logout_uri: 'http://portal.test/auth/sso/0/backchannel-logout',
  },
  { client_id: 'portal-b', client_secret: 'secret-of-portal-b', redirect_uris: [CALLBACK] },
];

describe('OpenID Connect sign-in through an organisation connection (docs/product-rules.md §6)', () => {
  let t: TestApp;
  let provider: { issuer: string; stop: () => void };

  beforeAll(async () => {
    provider = await startOrgOidcProvider(clients);
    t = await createTestApp({ SSO_ALLOW_PRIVATE_NETWORKS: 'true' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    provider?.stop();
  });

  async function setup(options: { clientId?: string; jit?: boolean; org?: Partial<Organisation> } = {}) {
    const org = await createOrganisation(t, options.org);
    const domain = uniqueDomain();
    await verifyDomain(t, org, domain);
    const client = clients.find((c) => c.client_id === (options.clientId ?? 'portal-a'))!;
    const c = await t.db.getRepository(SsoConnection).save(
      t.db.getRepository(SsoConnection).create({
        organisationId: org.id,
        protocol: 'oidc',
        name: 'Acme Okta',
        enabled: true,
        jitProvisioning: options.jit ?? false,
        defaultRoleId: options.jit ? Role.VIEWER : null,
        oidcIssuer: provider.issuer,
        oidcClientId: client.client_id,
        oidcClientSecret: encrypt(client.client_secret, t.config.encryptionKey),
      }),
    );
    return { org, domain, c };
  }

  /** GET /auth/sso/{id}, the person signs in at the provider as `login`, and the browser comes back to /callback. */
  async function roundTrip(connectionId: number, login: string) {
    const start = await request(t.http)
      .get(`/auth/sso/${connectionId}?login_hint=${encodeURIComponent(login)}`)
      .expect(302);
    const authorize = new URL(start.headers.location);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('scope')).toBe('openid email profile');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('login_hint')).toBe(login);
    const cookie = ([] as string[])
      .concat(start.headers['set-cookie'])
      .find((s) => s.startsWith('ssoTransaction='))!
      .split(';')[0];
    const back = new URL(await signInAtProvider(authorize.href, login));
    return request(t.http).get(`${back.pathname}${back.search}`).set('Cookie', cookie);
  }

  async function accessTokenOf(res: request.Response): Promise<string> {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    const { cookie } = fromResponse(res);
    return (await request(t.http).post('/refresh').set('Cookie', cookie).expect(200)).body.newAccessToken;
  }

  function expectRefused(res: request.Response, text?: string) {
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/logIn\?ssoError=/);
    if (text) expect(decodeURIComponent(res.headers.location)).toContain(text);
  }

  it('signs in an account of a verified domain, links its subject, and ends on /', async () => {
    const { org, domain, c } = await setup();
    const user = await createUser(t, org, { email: `olga@${domain}`, passwordHash: null });
    const token = await accessTokenOf(await roundTrip(c.id, user.email));
    const me = await request(t.http).get('/api/users/current').set('Authorization', `Bearer ${token}`).expect(200);
    expect(me.body.email).toBe(user.email);
    const sso = await t.db.getRepository(SsoSession).findBy({ connectionId: c.id });
    expect(sso).toHaveLength(1);
    expect(sso[0]).toMatchObject({ subject: user.email });
    expect(sso[0].providerSessionId).toBeTruthy();
    // The ID token is kept sealed, for the id_token_hint of the logout.
    expect(sso[0].idToken).not.toMatch(/^eyJ/);
  });

  it("steps up at the organisation's provider (prompt=login, max_age=0): the session marked; another person's login there is refused", async () => {
    const { org, domain, c } = await setup();
    const user = await createUser(t, org, { email: `sam@${domain}`, passwordHash: null, roleId: Role.SITE_ADMIN });
    const other = await createUser(t, org, { email: `tess@${domain}`, passwordHash: null });
    const token = await accessTokenOf(await roundTrip(c.id, user.email));
    const auth = { Authorization: `Bearer ${token}` };
    const sid = (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
    const age = () => {
      const at = new Date(Date.now() - 61 * 60_000);
      return t.db.getRepository(Session).update({ id: sid }, { createdAt: at, authenticatedAt: at });
    };
    await age();
    const refused = await request(t.http).get('/api/users/export').set(auth);
    expectErrorBody(refused, 403);
    expect(refused.body.code).toBe('STEP_UP_REQUIRED');

    /** POST /auth/step-up/sso, then the round trip at the provider as `login`: where the browser lands. */
    async function stepUpAs(login: string): Promise<string> {
      const { url } = (
        await request(t.http).post('/auth/step-up/sso').set(auth).send({ returnTo: '/users' }).expect(200)
      ).body as { url: string };
      expect(url).toMatch(new RegExp(`^/auth/sso/${c.id}\\?prompt=login&stepUp=`));
      const start = await request(t.http).get(url).expect(302);
      const authorize = new URL(start.headers.location);
      expect(authorize.origin).toBe(provider.issuer);
      expect([authorize.searchParams.get('prompt'), authorize.searchParams.get('max_age')]).toEqual(['login', '0']);
      const cookie = ([] as string[])
        .concat(start.headers['set-cookie'])
        .find((x) => x.startsWith('ssoTransaction='))!
        .split(';')[0];
      const back = new URL(await signInAtProvider(authorize.href, login));
      const end = await request(t.http).get(`${back.pathname}${back.search}`).set('Cookie', cookie).expect(302);
      // A step-up opens no session and sets no refresh cookie.
      expect(([] as string[]).concat(end.headers['set-cookie'] ?? []).some((x) => x.startsWith('refreshToken='))).toBe(
        false,
      );
      return end.headers.location as string;
    }

    const wrong = await stepUpAs(other.email);
    expect(wrong).toMatch(/^\/users\?stepUpError=/);
    expect((await request(t.http).get('/api/users/export').set(auth)).status).toBe(403);

    expect(await stepUpAs(user.email)).toBe('/users?stepUp=done');
    await request(t.http).get('/api/users/export').set(auth).expect(200);
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'STEP_UP' as never, actorId: user.id })).toBe(1);
    // A ticket is bound to its session: a forged or expired one goes nowhere.
    const forged = await request(t.http).get(`/auth/sso/${c.id}?prompt=login&stepUp=not-a-ticket`).expect(302);
    expect(forged.headers.location).toMatch(/^\/logIn\?ssoError=/);
  });

  it("refuses another organisation's user, an unverified domain and an unknown e-mail without just-in-time accounts", async () => {
    const { org, domain, c } = await setup();
    const other = await createOrganisation(t);
    const stranger = await createUser(t, other, { email: `stranger@${domain}` });
    expectRefused(await roundTrip(c.id, stranger.email), 'cannot sign in your account');
    const unverified = await createUser(t, org, { email: `ulf@not-${domain}` });
    expectRefused(await roundTrip(c.id, unverified.email), 'not verified');
    expectRefused(await roundTrip(c.id, `nobody@${domain}`), 'no account');
    const refused = await t.db.getRepository(AuditEvent).findBy({ type: 'SSO_SIGN_IN_REFUSED', targetId: stranger.id });
    expect(refused.map((e) => e.organisationId).sort()).toEqual([org.id, other.id].sort());
  });

  it('creates a just-in-time account with the default role and the names the provider gave', async () => {
    const { org, domain, c } = await setup({ jit: true });
    await accessTokenOf(await roundTrip(c.id, `jit@${domain}`));
    expect(await t.db.getRepository(User).findOneByOrFail({ email: `jit@${domain}` })).toMatchObject({
      organisationId: org.id,
      roleId: Role.VIEWER,
      firstName: 'Jit',
      lastName: 'Person',
      isSSO: true,
    });
  });

  it("tests a disabled connection: a fresh login at the provider, the ID token's claims reported, nobody signed in", async () => {
    const { org, domain, c } = await setup();
    await t.db.getRepository(SsoConnection).update(c.id, { enabled: false });
    const person = await createUser(t, org, { email: `tom@${domain}`, passwordHash: null });
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const tester = await login(t, admin.email);
    const started = await request(t.http).post(`/api/sso-connections/${c.id}/test`).set(tester.auth).expect(201);
    const start = await request(t.http).get(started.body.url).expect(302);
    const authorize = new URL(start.headers.location);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('prompt')).toBe('login');
    const cookie = ([] as string[])
      .concat(start.headers['set-cookie'])
      .find((s) => s.startsWith('ssoTransaction='))!
      .split(';')[0];
    const back = new URL(await signInAtProvider(authorize.href, person.email));
    const end = await request(t.http).get(`${back.pathname}${back.search}`).set('Cookie', cookie).expect(302);
    expect(([] as string[]).concat(end.headers['set-cookie'] ?? []).some((s) => /^refreshToken=[^;]/.test(s))).toBe(
      false,
    );
    const shown = new URL(end.headers.location, 'http://portal.test');
    expect(shown.pathname).toBe('/users/sso');
    const result = await request(t.http)
      .get(`/api/sso-connections/${c.id}/test-results/${shown.searchParams.get('ssoTest')}`)
      .set(tester.auth)
      .expect(200);
    expect(result.body).toMatchObject({ ok: true, outcome: 'SIGNS_IN', protocol: 'oidc' });
    expect(result.body.claims).toEqual(
      expect.arrayContaining([
        { name: 'sub', value: person.email },
        { name: 'email', value: person.email },
        { name: 'iss', value: provider.issuer },
      ]),
    );
    expect(await t.db.getRepository(SsoSession).countBy({ connectionId: c.id })).toBe(0);
  });

  it('refuses a code issued to another client of the provider', async () => {
    const a = await setup();
    const b = await setup({ clientId: 'portal-b' });
    const user = await createUser(t, a.org, { email: `xavier@${a.domain}` });
    // The person signs in through connection B (client portal-b); the code comes back with A's transaction.
    const startB = await request(t.http).get(`/auth/sso/${b.c.id}`).expect(302);
    const backB = new URL(await signInAtProvider(startB.headers.location, user.email));
    const startA = await request(t.http).get(`/auth/sso/${a.c.id}`).expect(302);
    const cookieA = ([] as string[])
      .concat(startA.headers['set-cookie'])
      .find((s) => s.startsWith('ssoTransaction='))!
      .split(';')[0];
    const stateA = new URL(startA.headers.location).searchParams.get('state')!;
    backB.searchParams.set('state', stateA);
    expectRefused(await request(t.http).get(`${backB.pathname}${backB.search}`).set('Cookie', cookieA));
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'SSO_SIGN_IN', targetId: user.id })).toBe(0);
  });

  it('logs out at the provider: its end-session endpoint with id_token_hint and PUBLIC_URL/logIn', async () => {
    const { org, domain, c } = await setup();
    const user = await createUser(t, org, { email: `lou@${domain}` });
    const token = await accessTokenOf(await roundTrip(c.id, user.email));
    const out = await request(t.http).post('/auth/logout').set('Authorization', `Bearer ${token}`).expect(200);
    const url = new URL(out.body.logoutUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe('http://portal.test/logIn');
    expect(url.searchParams.get('id_token_hint')).toMatch(/^eyJ/);
    // A password session has nothing more to end.
    const plain = await createUser(t, org);
    const login = await request(t.http)
      .post('/auth/login')
      .send({ username: plain.email, password: 'Correct-Horse-9', acceptToS: true })
      .expect(200);
    const plainOut = await request(t.http)
      .post('/auth/logout')
      .set('Authorization', `Bearer ${login.body.accessToken}`)
      .expect(200);
    expect(plainOut.body).toEqual({ success: true });
  });

  it('ends the sessions a valid back-channel logout token names, at once; an invalid or replayed one changes nothing', async () => {
    const { org, domain, c } = await setup();
    const user = await createUser(t, org, { email: `bea@${domain}` });
    const first = await accessTokenOf(await roundTrip(c.id, user.email));
    const second = await accessTokenOf(await roundTrip(c.id, user.email));
    const sso = await t.db.getRepository(SsoSession).findBy({ connectionId: c.id });
    expect(sso).toHaveLength(2);
    const issued = await fetch(
      `${provider.issuer}/test/backchannel?client_id=portal-a&sub=${encodeURIComponent(user.email)}&sid=${encodeURIComponent(sso[0].providerSessionId!)}`,
    );
    const { logout_token: logoutToken } = (await issued.json()) as { logout_token: string };
    expect(logoutToken).toBeTruthy();

    // A bad signature, a token for another connection and garbage: refused, and every session stays.
    const [h, p, s] = logoutToken.split('.');
    const badSignature = `${h}.${p}.${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const other = await setup({ clientId: 'portal-b' });
    for (const [id, token] of [
      [c.id, badSignature],
      [other.c.id, logoutToken],
      [c.id, 'not-a-jwt'],
    ] as const) {
      expectErrorBody(
        await request(t.http).post(`/auth/sso/${id}/backchannel-logout`).type('form').send({ logout_token: token }),
        400,
      );
    }
    expectErrorBody(await request(t.http).post(`/auth/sso/${c.id}/backchannel-logout`).type('form').send({}), 400);
    expect(await t.db.getRepository(Session).countBy({ userId: user.id, endedAt: IsNull() })).toBe(2);
    await request(t.http).get('/api/users/current').set('Authorization', `Bearer ${first}`).expect(200);

    const ok = await request(t.http)
      .post(`/auth/sso/${c.id}/backchannel-logout`)
      .type('form')
      .send({ logout_token: logoutToken });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toContain('no-store');
    const ended = await t.db.getRepository(Session).findOneByOrFail({ id: sso[0].sessionId });
    expect(ended.endReason).toBe('sso-logout');
    const stillOpen = await t.db.getRepository(Session).findOneByOrFail({ id: sso[1].sessionId });
    expect(stillOpen.endedAt).toBeNull();
    const tokens = [first, second];
    const endedToken =
      (await request(t.http).get('/api/users/current').set('Authorization', `Bearer ${tokens[0]}`)).status === 401
        ? tokens[0]
        : tokens[1];
    await request(t.http).get('/api/users/current').set('Authorization', `Bearer ${endedToken}`).expect(401);
    // The same token again: refused (its jti is used).
    expectErrorBody(
      await request(t.http)
        .post(`/auth/sso/${c.id}/backchannel-logout`)
        .type('form')
        .send({ logout_token: logoutToken }),
      400,
    );
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'SSO_LOGOUT', targetId: user.id })).toBe(1);
  });

  it('discovers the connection of a verified domain, the same way whether or not the account exists', async () => {
    const { org, domain, c } = await setup();
    const user = await createUser(t, org, { email: `dora@${domain}` });
    const known = await request(t.http).post('/auth/sso/discover').send({ email: user.email }).expect(200);
    const unknown = await request(t.http)
      .post('/auth/sso/discover')
      .send({ email: `nobody@${domain}` })
      .expect(200);
    expect(known.body).toEqual({
      sso: true,
      url: `/auth/sso/${c.id}?login_hint=${encodeURIComponent(user.email)}`,
      name: 'Acme Okta',
    });
    expect(unknown.body).toEqual({
      ...known.body,
      url: `/auth/sso/${c.id}?login_hint=${encodeURIComponent(`nobody@${domain}`)}`,
    });
    expect(
      (await request(t.http).post('/auth/sso/discover').send({ email: 'someone@unclaimed.example' }).expect(200)).body,
    ).toEqual({ sso: false });
    await t.db.getRepository(SsoConnection).update({ id: c.id }, { enabled: false });
    expect((await request(t.http).post('/auth/sso/discover').send({ email: user.email }).expect(200)).body).toEqual({
      sso: false,
    });
    expectErrorBody(await request(t.http).post('/auth/sso/discover').send({ email: 42 }), 400);
  });
});
