import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import request from 'supertest';
import { Organisation } from '../../src/database/entities/organisation.entity';
import { User } from '../../src/database/entities/user.entity';
import { NewOidcClient } from '../../src/shared/oidc-clients';
import { Role } from '../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn, PASSWORD } from '../utils/factories';
import { Browser, freePort } from '../utils/relying-party';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebhookReceiver } from '../utils/webhook-receiver';

const CALLBACK = 'http://127.0.0.1:9/callback';
const ALL_SCOPES = 'openid email profile organisation offline_access';

/**
 * The portal as an OpenID provider (docs/oidc-provider.md), driven by openid-client 6 as a real relying party: the
 * portal's sign-in is the provider's, codes need PKCE, tokens are signed with the keys the JWKS publishes, refresh
 * tokens rotate and a reused one revokes the grant, and ending the portal session ends the applications' sessions.
 */
describe('The portal as an OpenID provider', () => {
  let t: TestApp;
  let issuer: string;
  let vendor: Organisation;
  let org: Organisation;
  let otherOrg: Organisation;
  let support: LoggedIn;
  let siteAdmin: LoggedIn;
  let member: User;
  let stranger: User;
  let deploymentApp: NewOidcClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: issuer, ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,1s' });
    await new Promise<void>((resolve) => t.http.listen(port, '127.0.0.1', resolve));
    receiver = await new WebhookReceiver().start();
    vendor = await createOrganisation(t, { isVendor: true });
    org = await createOrganisation(t, { applications: ['TAX_MANAGER', 'CA_VIEWER'] });
    otherOrg = await createOrganisation(t);
    support = await login(t, (await createUser(t, vendor, { roleId: Role.E_SUPPORT })).email);
    siteAdmin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
    member = await createUser(t, org, { roleId: Role.ANALYST, isAdministrator: true });
    stranger = await createUser(t, otherOrg, { roleId: Role.ANALYST });
    deploymentApp = await register(support, {
      name: 'Tax manager',
      type: 'confidential',
      redirectUris: [CALLBACK],
      postLogoutRedirectUris: ['http://127.0.0.1:9/bye'],
      backchannelLogoutUri: `${receiver.url}/logout`,
    });
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  const http = () => request(t.http);

  async function register(as: LoggedIn, body: object, query = ''): Promise<NewOidcClient> {
    const res = await http().post(`/api/oidc-clients${query}`).set(as.auth).send(body);
    if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as NewOidcClient;
  }

  /** A browser signed in at the portal's own /auth/login (the refresh cookie and its /oidc/ copy kept). */
  async function signedInBrowser(user: User): Promise<Browser> {
    const browser = new Browser(issuer);
    const res = await browser.request('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.email, password: PASSWORD, acceptToS: true }),
    });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    return browser;
  }

  function relyingParty(client: NewOidcClient): Promise<oidc.Configuration> {
    return oidc.discovery(
      new URL(issuer),
      client.clientId,
      client.clientSecret ? { client_secret: client.clientSecret } : {},
      client.clientSecret ? oidc.ClientSecretBasic(client.clientSecret) : oidc.None(),
      { execute: [oidc.allowInsecureRequests] },
    );
  }

  interface Started {
    url: URL;
    verifier: string;
    state: string;
  }

  async function authorizationUrl(
    config: oidc.Configuration,
    extra: Record<string, string> = {},
    scope = ALL_SCOPES,
  ): Promise<Started> {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...(scope.includes('offline_access') ? { prompt: 'consent' } : {}),
      ...extra,
    });
    return { url, verifier, state };
  }

  /** The whole round trip of a signed-in browser: authorize, follow the redirects, exchange the code. */
  async function signIn(config: oidc.Configuration, browser: Browser, extra: Record<string, string> = {}) {
    const started = await authorizationUrl(config, extra);
    const { location } = await browser.follow(started.url.href);
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(location!), {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    return { tokens, location: location! };
  }

  describe('discovery', () => {
    it('names every endpoint under /oidc/ and only what CONTRACT-level rules allow', async () => {
      const res = await http().get('/.well-known/openid-configuration').expect(200);
      const d = res.body as Record<string, unknown>;
      expect(d.issuer).toBe(issuer);
      for (const name of [
        'authorization_endpoint',
        'token_endpoint',
        'userinfo_endpoint',
        'jwks_uri',
        'end_session_endpoint',
        'revocation_endpoint',
        'introspection_endpoint',
      ])
        expect(String(d[name])).toMatch(new RegExp(`^${issuer}/oidc/`));
      expect(d.backchannel_logout_supported).toBe(true);
      expect(d.code_challenge_methods_supported).toEqual(['S256']);
      expect(d.response_types_supported).toEqual(['code']);
      expect(d.token_endpoint_auth_methods_supported).toEqual(
        expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
      );
      expect(d.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256']));
      for (const list of ['id_token_signing_alg_values_supported', 'request_object_signing_alg_values_supported'])
        for (const alg of (d[list] as string[] | undefined) ?? []) expect(alg).toMatch(/^(ES|RS)256$/);
      expect(d.scopes_supported).toEqual(
        expect.arrayContaining(['openid', 'email', 'profile', 'organisation', 'offline_access']),
      );
    });

    it('is not the client application page', async () => {
      const res = await http().get('/.well-known/openid-configuration');
      expect(res.headers['content-type']).toMatch(/application\/json/);
    });
  });

  describe('a signed-in browser at the deployment application', () => {
    it('gets a code at once, exchanged with PKCE for tokens signed with a published key', async () => {
      const config = await relyingParty(deploymentApp);
      const browser = await signedInBrowser(member);
      const { tokens } = await signIn(config, browser);
      const jwks = createRemoteJWKSet(new URL(`${issuer}/oidc/jwks`));
      const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, {
        issuer,
        audience: deploymentApp.clientId,
      });
      expect(protectedHeader.alg).toBe('ES256');
      expect(payload).toMatchObject({
        sub: String(member.id),
        email: member.email,
        email_verified: true,
        given_name: member.firstName,
        family_name: member.lastName,
        org_id: String(org.id),
        org_code: org.code,
        org_name: org.name,
        roles: ['ANALYST', 'ADMINISTRATOR'],
        applications: ['tax-manager', 'corporate-actions-viewer'],
        amr: ['pwd'],
      });
      expect(typeof payload.sid).toBe('string');
      expect(typeof payload.auth_time).toBe('number');
      expect(tokens.refresh_token).toEqual(expect.any(String));
      expect(tokens.expires_in).toBeLessThanOrEqual(900);

      const info = await oidc.fetchUserInfo(config, tokens.access_token, String(member.id));
      expect(info).toMatchObject({
        sub: String(member.id),
        email: member.email,
        org_id: String(org.id),
        roles: ['ANALYST', 'ADMINISTRATOR'],
        applications: ['tax-manager', 'corporate-actions-viewer'],
      });
    });

    it('rotates refresh tokens; a reused one revokes the grant', async () => {
      const config = await relyingParty(deploymentApp);
      const { tokens } = await signIn(config, await signedInBrowser(member));
      const first = tokens.refresh_token!;
      const second = await oidc.refreshTokenGrant(config, first);
      expect(second.refresh_token).toEqual(expect.any(String));
      expect(second.refresh_token).not.toBe(first);
      await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
      // The reuse revoked the grant: the latest refresh token and its access token stop too.
      await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await expect(oidc.fetchUserInfo(config, second.access_token, String(member.id))).rejects.toBeDefined();
    });

    it('a replayed code is refused and revokes the tokens it issued', async () => {
      const config = await relyingParty(deploymentApp);
      const started = await authorizationUrl(config);
      const { location } = await (await signedInBrowser(member)).follow(started.url.href);
      const callback = new URL(location!);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      });
      await expect(
        oidc.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: started.verifier,
          expectedState: started.state,
        }),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(oidc.fetchUserInfo(config, tokens.access_token, String(member.id))).rejects.toBeDefined();
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('prompt=none answers a code with a portal session, and login_required without one', async () => {
      const config = await relyingParty(deploymentApp);
      const { location } = await signIn(config, await signedInBrowser(member), { prompt: 'none' });
      expect(new URL(location).searchParams.get('code')).toEqual(expect.any(String));

      const started = await authorizationUrl(config, { prompt: 'none' }, 'openid email');
      const anonymous = await new Browser(issuer).follow(started.url.href);
      const back = new URL(anonymous.location!);
      expect(back.origin + back.pathname).toBe(CALLBACK);
      expect(back.searchParams.get('error')).toBe('login_required');
      expect(back.searchParams.get('state')).toBe(started.state);
    });

    it('without a session goes to the login card, and back to the application after signing in', async () => {
      const config = await relyingParty(deploymentApp);
      const started = await authorizationUrl(config, {}, 'openid email');
      const browser = new Browser(issuer);
      const first = await browser.follow(started.url.href);
      const card = new URL(first.location!);
      expect(card.pathname).toBe('/logIn');
      const returnTo = card.searchParams.get('returnTo')!;
      expect(returnTo).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
      // The card signs in through the API, then the page goes to returnTo (a full navigation).
      const login = await browser.request('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: member.email, password: PASSWORD, acceptToS: true }),
      });
      expect(login.status).toBe(200);
      const { location } = await browser.follow(returnTo);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(location!), {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      });
      expect(decodeJwt(tokens.id_token!).sub).toBe(String(member.id));
    });
  });

  describe('refusals', () => {
    it('a wrong redirect_uri shows an error page on the portal and never redirects', async () => {
      const config = await relyingParty(deploymentApp);
      const started = await authorizationUrl(config, { redirect_uri: 'https://evil.example/callback' }, 'openid');
      const res = await (await signedInBrowser(member)).request(started.url.href);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get('location')).toBeNull();
      const html = await res.text();
      expect(html).toContain('redirect_uri');
      expect(html).not.toContain('evil.example/callback"');
    });

    it('an unknown client_id shows an error page, with nothing of the request reflected as markup', async () => {
      const res = await http().get('/oidc/auth').query({
        client_id: '<script>alert(1)</script>',
        redirect_uri: CALLBACK,
        response_type: 'code',
        scope: 'openid',
      });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).not.toContain('<script>alert(1)</script>');
    });

    it('a public application without PKCE is refused', async () => {
      const app = await register(support, { name: 'Native tool', type: 'public', redirectUris: [CALLBACK] });
      const config = await relyingParty(app);
      const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state: 's1' });
      const { location } = await (await signedInBrowser(member)).follow(url.href);
      const back = new URL(location!);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    });

    it("another organisation's member at an organisation's application gets access_denied", async () => {
      const app = await register(siteAdmin, { name: 'Org tool', type: 'confidential', redirectUris: [CALLBACK] });
      const config = await relyingParty(app);
      const started = await authorizationUrl(config, {}, 'openid');
      const { location } = await (await signedInBrowser(stranger)).follow(started.url.href);
      const back = new URL(location!);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe(started.state);
    });

    it('request objects are refused, unsigned (alg none) and HMAC-signed alike', async () => {
      const config = await relyingParty(deploymentApp);
      const started = await authorizationUrl(config, {}, 'openid');
      const header = (alg: string) => Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url');
      const claims = Buffer.from(
        JSON.stringify({ iss: deploymentApp.clientId, aud: issuer, redirect_uri: 'https://evil.example/cb' }),
      ).toString('base64url');
      for (const jwt of [`${header('none')}.${claims}.`, `${header('HS256')}.${claims}.c2lnbmF0dXJl`]) {
        const url = new URL(started.url);
        url.searchParams.set('request', jwt);
        const { res, location } = await (await signedInBrowser(member)).follow(url.href);
        if (location) {
          expect(location.startsWith(CALLBACK)).toBe(true);
          expect(new URL(location).searchParams.get('error')).toEqual(expect.any(String));
          expect(new URL(location).searchParams.get('code')).toBeNull();
        } else expect(res.status).toBeGreaterThanOrEqual(400);
      }
    });

    it('an unregistered post_logout_redirect_uri is refused without a redirect', async () => {
      const config = await relyingParty(deploymentApp);
      const { tokens } = await signIn(config, await signedInBrowser(member));
      const res = await http()
        .get('/oidc/session/end')
        .query({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://evil.example/bye' });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
    });
  });

  describe('logout', () => {
    it('force log-off sends a logout token to the application and stops its refresh token', async () => {
      const config = await relyingParty(deploymentApp);
      const { tokens } = await signIn(config, await signedInBrowser(member));
      const sid = decodeJwt(tokens.id_token!).sid;
      const admin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
      receiver.requests.length = 0;
      await http()
        .post('/api/userLoginActivities/force-logoff')
        .set(admin.auth)
        .send({ userIds: [member.id] })
        .expect(200);
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      // Every session of the member ended (each test signed in anew): the one this application signed into is told.
      const jwks = createRemoteJWKSet(new URL(`${issuer}/oidc/jwks`));
      const deadline = Date.now() + 10_000;
      let payload: Record<string, unknown> | undefined;
      while (!payload && Date.now() < deadline) {
        for (const r of receiver.requests.filter((q) => q.path === '/logout')) {
          const logoutToken = new URLSearchParams(r.body).get('logout_token')!;
          const verified = await jwtVerify(logoutToken, jwks, { issuer, audience: deploymentApp.clientId });
          if (verified.payload.sid === sid) payload = verified.payload;
        }
        if (!payload) await new Promise((r) => setTimeout(r, 100));
      }
      expect(payload).toBeDefined();
      expect(payload!.sub).toBe(String(member.id));
      expect(payload!.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
      expect(payload!.nonce).toBeUndefined();
    });
  });

  describe('signing keys', () => {
    it('a rotation signs with the new key and keeps the old one published', async () => {
      const config = await relyingParty(deploymentApp);
      const before = (await signIn(config, await signedInBrowser(member))).tokens.id_token!;
      const res = await http().post('/api/oidc/keys/rotate').set(support.auth).expect(200);
      expect(res.body.kid).not.toBe(decodeProtectedHeader(before).kid);
      const after = (await signIn(config, await signedInBrowser(member))).tokens.id_token!;
      expect(decodeProtectedHeader(after).kid).toBe(res.body.kid);
      const jwks = createRemoteJWKSet(new URL(`${issuer}/oidc/jwks`));
      await jwtVerify(before, jwks, { issuer });
      await jwtVerify(after, jwks, { issuer });
    });

    it('is E-Support only', async () => {
      await http().post('/api/oidc/keys/rotate').set(siteAdmin.auth).expect(403);
    });
  });
});
