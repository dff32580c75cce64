import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { OidcClient } from '../../../src/identity/oidc-provider/entities/oidc-client.entity';
import { OidcSigningKey } from '../../../src/identity/oidc-provider/entities/oidc-signing-key.entity';
import { OidcKeysService } from '../../../src/identity/oidc-provider/oidc-keys.service';
import { OidcSessionLink } from '../../../src/identity/oidc-provider/entities/oidc-session-link.entity';
import { MyOidcApp, NewOidcClient, OidcClientItem } from '../../../src/shared/identity/oidc-clients';
import { Role } from '../../../src/shared/roles';
import { RATE_LIMITS } from '../../../src/platform/web/throttling/rate-limits';
import { createOrganisation, createUser, login, LoggedIn, PASSWORD, totp } from '../../utils/factories';
import { Browser, freePort } from '../../utils/identity-providers/relying-party';
import { createInstanceBeside, createTestApp, TestApp } from '../../utils/test-app';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { IntegrationDelivery } from '../../../src/administration/integrations/entities/integration-delivery.entity';
import { WebhookReceiver } from '../../utils/servers/webhook-receiver';
import { expectErrorBody } from '../../utils/error-body';
import { createRoleMatrix } from '../../utils/roles';
import { ageSession } from '../../utils/step-up';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { lastMailTo } from '../../utils/outbox';

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
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    });

    it('an unknown or expired sign-in shows an error page without scripts', async () => {
      const res = await http().get('/oidc/interaction/not-a-real-one');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.text).toContain('This sign-in cannot continue');
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

  describe('tokens live within their portal session', () => {
    it("a sign-in after the portal session ended never brings the old session's tokens back", async () => {
      const config = await relyingParty(deploymentApp);
      const browser = await signedInBrowser(member);
      const { tokens } = await signIn(config, browser);
      const first = await t.db
        .getRepository(OidcSessionLink)
        .findOneByOrFail({ sid: String(decodeJwt(tokens.id_token!).sid) });
      // The portal session ends in the database alone (another instance, a crash before the sweep told anyone).
      await t.db
        .getRepository(Session)
        .update({ id: first.portalSessionId }, { endedAt: new Date(), endReason: 'logout' });
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
      expect(introspected.active).toBe(false);
      // The same browser signs in again; the application's silent renewal gets a new grant, the old one stays dead.
      const again = await browser.request('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: member.email, password: PASSWORD, acceptToS: true }),
      });
      expect(again.status).toBe(200);
      const renewed = await signIn(config, browser, { prompt: 'none' });
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await expect(oidc.fetchUserInfo(config, tokens.access_token, String(member.id))).rejects.toBeDefined();
      await oidc.fetchUserInfo(config, renewed.tokens.access_token, String(member.id));
    });
  });

  describe('back-channel logout delivery', () => {
    it('retries a logout token the application failed to take, until it answers', async () => {
      const path = '/flaky-logout';
      const app = await register(support, {
        name: 'Flaky receiver',
        type: 'confidential',
        redirectUris: [CALLBACK],
        backchannelLogoutUri: `${receiver.url}${path}`,
      });
      receiver.answer(path, { status: 500 }, { status: 204 });
      const config = await relyingParty(app);
      const user = await createUser(t, org, { roleId: Role.ANALYST });
      await signIn(config, await signedInBrowser(user));
      const admin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
      await http()
        .post('/api/userLoginActivities/force-logoff')
        .set(admin.auth)
        .send({ userIds: [user.id] })
        .expect(200);
      const deadline = Date.now() + 15_000;
      while (receiver.requests.filter((r) => r.path === path).length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
      const attempts = receiver.requests.filter((r) => r.path === path);
      expect(attempts).toHaveLength(2);
      // The answer reaches the receiver before the delivery records it: the row is read once it has been written.
      const links = t.db.getRepository(OidcSessionLink);
      let link = await links.findOneByOrFail({ clientId: app.clientId });
      while (link.pending !== null && Date.now() < deadline + 5_000) {
        await new Promise((r) => setTimeout(r, 100));
        link = await links.findOneByOrFail({ clientId: app.clientId });
      }
      expect(link.pending).toBeNull();
      expect(link.attempts).toBe(2);
    });
  });

  describe('another person in the same browser', () => {
    it("signs the application in as the portal's new account, never the previous one", async () => {
      const config = await relyingParty(deploymentApp);
      const browser = await signedInBrowser(member);
      await signIn(config, browser);
      const next = await createUser(t, org, { roleId: Role.VIEWER });
      const login = await browser.request('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: next.email, password: PASSWORD, acceptToS: true }),
      });
      expect(login.status).toBe(200);
      const started = await authorizationUrl(config, {}, 'openid');
      let { res, location } = await browser.follow(started.url.href);
      // The library ends the previous account's provider session first, through its own auto-submitted form.
      for (let hops = 0; !location && res.status === 200 && hops < 3; hops++) {
        const html = await res.text();
        const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
        if (!action) break;
        const fields = new URLSearchParams();
        for (const [, k, v] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields.set(k, v);
        ({ res, location } = await browser.follow(action.replace(/&#x2F;|&#47;/g, '/'), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: fields.toString(),
        }));
      }
      const tokens = await oidc.authorizationCodeGrant(config, new URL(location!), {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      });
      expect(decodeJwt(tokens.id_token!).sub).toBe(String(next.id));
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

  describe('an organisation application: consent once, withdrawn on My Security', () => {
    it('asks once (Allow), lists the application, and a withdrawal stops its tokens', async () => {
      const app = await register(siteAdmin, {
        name: 'Reporting <b>tool</b>',
        type: 'confidential',
        redirectUris: [CALLBACK],
      });
      const config = await relyingParty(app);
      const browser = await signedInBrowser(member);
      const started = await authorizationUrl(config);
      const { res } = await browser.follow(started.url.href);
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain('Reporting &#60;b&#62;tool&#60;&#47;b&#62;');
      expect(page).not.toContain('<b>tool</b>');
      expect(page).toContain('Your e-mail address');
      expect(page).toMatch(/>Allow</);
      expect(page).toMatch(/>Cancel</);
      expect(res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9");
      const action = /action="([^"]+confirm)"/.exec(page)![1].replace(/&#47;/g, '/');
      const { location } = await browser.follow(action, { method: 'POST' });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(location!), {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      });
      expect(decodeJwt(tokens.id_token!).org_id).toBe(String(org.id));

      // Once given, no page: the next sign-in answers at once.
      await signIn(config, browser);
      const given = await t.db.getRepository(AuditEvent).findBy({ type: 'OIDC_CONSENT_GIVEN', targetId: member.id });
      expect(given).toHaveLength(1);
      // Its use is recorded for the application's and the member's lists.
      const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      const used = await t.db.getRepository(OidcClient).findOneByOrFail({ clientId: app.clientId });
      expect(used.lastUsedAt).not.toBeNull();

      const session = await login(t, member.email);
      const apps = (await http().get('/api/me/apps').set(session.auth).expect(200)).body as MyOidcApp[];
      expect(apps.find((a) => a.clientId === app.clientId)).toMatchObject({
        name: 'Reporting <b>tool</b>',
        scopes: ['openid', 'email', 'profile', 'organisation', 'offline_access'],
      });
      await http().delete(`/api/me/apps/${app.clientId}`).set(session.auth).expect(200);
      await expect(oidc.refreshTokenGrant(config, rotated.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      const again = await http().delete(`/api/me/apps/${app.clientId}`).set(session.auth);
      expectErrorBody(again, 404);
      // Consent is asked again.
      const next = await browser.follow((await authorizationUrl(config)).url.href);
      expect(next.res.status).toBe(200);
      expect(await next.res.text()).toMatch(/>Allow</);
    });

    it('Cancel sends access_denied back to the application', async () => {
      const app = await register(siteAdmin, { name: 'Another tool', type: 'public', redirectUris: [CALLBACK] });
      const config = await relyingParty(app);
      const browser = await signedInBrowser(member);
      const started = await authorizationUrl(config, {}, 'openid email');
      const { res } = await browser.follow(started.url.href);
      const page = await res.text();
      const cancel = /action="([^"]+abort)"/.exec(page)![1].replace(/&#47;/g, '/');
      const { location } = await browser.follow(cancel, { method: 'POST' });
      const back = new URL(location!);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe(started.state);
    });

    it('prompt=none without consent answers consent_required, never a page', async () => {
      const app = await register(siteAdmin, { name: 'Silent tool', type: 'public', redirectUris: [CALLBACK] });
      const config = await relyingParty(app);
      const started = await authorizationUrl(config, { prompt: 'none' }, 'openid');
      const { location } = await (await signedInBrowser(member)).follow(started.url.href);
      expect(new URL(location!).searchParams.get('error')).toBe('consent_required');
    });
  });

  describe('re-authentication and logout at the provider', () => {
    it('prompt=login sends a signed-in browser to the login card again', async () => {
      const config = await relyingParty(deploymentApp);
      const browser = await signedInBrowser(member);
      const started = await authorizationUrl(config, { prompt: 'login' }, 'openid');
      const { location } = await browser.follow(started.url.href);
      const card = new URL(location!);
      expect(card.pathname).toBe('/logIn');
      expect(card.searchParams.get('prompt')).toBe('login');
    });

    it('max_age older than the sign-in sends the browser to the card; within it, a code', async () => {
      const config = await relyingParty(deploymentApp);
      const browser = await signedInBrowser(member);
      const fresh = await authorizationUrl(config, { max_age: '600' }, 'openid');
      expect((await browser.follow(fresh.url.href)).location).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
      await t.db
        .getRepository(Session)
        .update(
          { userId: member.id },
          { createdAt: new Date(Date.now() - 3_600_000), authenticatedAt: new Date(Date.now() - 3_600_000) },
        );
      const stale = await authorizationUrl(config, { max_age: '600' }, 'openid');
      const { location } = await browser.follow(stale.url.href);
      expect(new URL(location!).pathname).toBe('/logIn');
    });

    it('acr_values=mfa refuses a password-only sign-in of an account without a second factor', async () => {
      const config = await relyingParty(deploymentApp);
      const started = await authorizationUrl(config, { acr_values: 'mfa' }, 'openid');
      const { location } = await (await signedInBrowser(member)).follow(started.url.href);
      expect(new URL(location!).searchParams.get('error')).toBe('access_denied');
    });

    it('acr_values=mfa lets in a sign-in that passed a TOTP code, with otp in amr', async () => {
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      const user = await createUser(t, org, { roleId: Role.ANALYST, totpSecret: secret });
      const browser = new Browser(issuer);
      const first = await browser.request('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.email, password: PASSWORD, acceptToS: true }),
      });
      const { challengeToken } = (await first.json()) as { challengeToken: string };
      const second = await browser.request('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${challengeToken}` },
        body: JSON.stringify({
          username: user.email,
          password: PASSWORD,
          acceptToS: true,
          mfaToken: await totp(secret),
        }),
      });
      expect(second.status).toBe(200);
      const config = await relyingParty(deploymentApp);
      const { tokens } = await signIn(config, browser, { acr_values: 'mfa' });
      const claims = decodeJwt(tokens.id_token!);
      expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
      expect(claims.acr).toBe('mfa');
    });

    describe('amr and acr come from the factors the portal session was opened with', () => {
      const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      const json = { 'content-type': 'application/json' };

      /** A password sign-in in `browser`; the second step's body (the code) when the account is asked for one. */
      async function passwordSignIn(browser: Browser, user: User, second?: (challenge: string) => Promise<object>) {
        const body = { username: user.email, password: PASSWORD, acceptToS: true };
        const first = await browser.request('/auth/login', {
          method: 'POST',
          headers: json,
          body: JSON.stringify(body),
        });
        if (first.status === 200 || !second) {
          expect(first.status).toBe(200);
          return (await first.json()) as { accessToken: string };
        }
        const { challengeToken } = (await first.json()) as { challengeToken: string };
        const res = await browser.request('/auth/login', {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${challengeToken}` },
          body: JSON.stringify({ ...body, ...(await second(challengeToken)) }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { accessToken: string };
      }

      /** The method My Security lists for the browser's session, and the ID token's amr and acr (with acr_values). */
      async function recorded(browser: Browser, accessToken: string, extra: Record<string, string> = {}) {
        const sessions = await http().get('/api/me/sessions').set('Authorization', `Bearer ${accessToken}`).expect(200);
        const method = (sessions.body as { current: boolean; method: string }[]).find((x) => x.current)!.method;
        const { tokens } = await signIn(await relyingParty(deploymentApp), browser, extra);
        const { amr, acr } = decodeJwt(tokens.id_token!);
        return { method, amr, acr };
      }

      it('an authenticator code: password+totp, pwd otp mfa', async () => {
        const user = await createUser(t, org, { roleId: Role.ANALYST, totpSecret: SECRET });
        const browser = new Browser(issuer);
        const { accessToken } = await passwordSignIn(browser, user, async () => ({ mfaToken: await totp(SECRET) }));
        expect(await recorded(browser, accessToken, { acr_values: 'mfa' })).toEqual({
          method: 'password+totp',
          amr: ['pwd', 'otp', 'mfa'],
          acr: 'mfa',
        });
      });

      it('an e-mailed code: password+email, pwd otp mfa', async () => {
        const user = await createUser(t, org, { roleId: Role.ANALYST, totpSecret: SECRET });
        const browser = new Browser(issuer);
        const { accessToken } = await passwordSignIn(browser, user, async (challenge) => {
          await http().post('/mfa/email-mfa').set('Authorization', `Bearer ${challenge}`).expect(200);
          const mail = await lastMailTo(t.dataDir, user.email);
          return { mfaToken: /\b(\d{6})\b/.exec(mail!.text)![1] };
        });
        expect(await recorded(browser, accessToken, { acr_values: 'mfa' })).toEqual({
          method: 'password+email',
          amr: ['pwd', 'otp', 'mfa'],
          acr: 'mfa',
        });
      });

      it('a trusted device standing in for the code: password+device, pwd mfa', async () => {
        const user = await createUser(t, org, { roleId: Role.ANALYST, totpSecret: SECRET });
        const browser = new Browser(issuer);
        await passwordSignIn(browser, user, async () => ({ mfaToken: await totp(SECRET), rememberDevice: true }));
        const { accessToken } = await passwordSignIn(browser, user);
        expect(await recorded(browser, accessToken, { acr_values: 'mfa' })).toEqual({
          method: 'password+device',
          amr: ['pwd', 'mfa'],
          acr: 'mfa',
        });
      });

      it('a password alone stays pwd even once the account has a second factor: acr_values=mfa asks again', async () => {
        const user = await createUser(t, org, { roleId: Role.ANALYST });
        const browser = new Browser(issuer);
        const { accessToken } = await passwordSignIn(browser, user);
        // The second factor set up after this session was opened proves nothing about it.
        await t.db.getRepository(User).update({ id: user.id }, { isMFAEnabled: true });
        expect(await recorded(browser, accessToken)).toEqual({ method: 'password', amr: ['pwd'], acr: undefined });
        const started = await authorizationUrl(await relyingParty(deploymentApp), { acr_values: 'mfa' }, 'openid');
        const { location } = await browser.follow(started.url.href);
        const card = new URL(location!);
        expect(card.pathname).toBe('/logIn');
        expect(card.searchParams.get('prompt')).toBe('login');
      });
    });

    it("a live session from outside the organisation's address ranges is refused (access_denied)", async () => {
      const fenced = await createOrganisation(t);
      const user = await createUser(t, fenced, { roleId: Role.ANALYST });
      const browser = await signedInBrowser(user);
      await t.db.getRepository(Organisation).update({ id: fenced.id }, { allowedIpRanges: ['203.0.113.0/24'] });
      const config = await relyingParty(deploymentApp);
      const started = await authorizationUrl(config, {}, 'openid');
      const { location } = await browser.follow(started.url.href);
      expect(new URL(location!).searchParams.get('error')).toBe('access_denied');
    });

    it('the end-session endpoint ends the portal session too', async () => {
      const config = await relyingParty(deploymentApp);
      const browser = await signedInBrowser(member);
      const { tokens } = await signIn(config, browser);
      const end = oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: 'http://127.0.0.1:9/bye',
        state: 'bye-1',
      });
      const question = await browser.request(end.href);
      expect(question.status).toBe(200);
      const form = await question.text();
      expect(form).toContain('Sign out of the portal?');
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(form)![1];
      const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(form)![1];
      const { location } = await browser.follow(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
      });
      expect(location).toBe('http://127.0.0.1:9/bye?state=bye-1');
      // The portal session behind it ended: the refresh cookie no longer refreshes.
      const refreshed = await browser.request('/refresh', { method: 'POST' });
      expect(refreshed.status).toBe(401);
    });
  });

  describe('registering applications', () => {
    it("GET /api/app-info tells the registration form the deployment's rule for addresses (ALLOW_PRIVATE_NETWORKS)", async () => {
      const info = await http().get('/api/app-info').expect(200);
      expect(info.body.allowPrivateNetworks).toBe(true);
    });

    it('site admins their own organisation, E-Support the deployment or any organisation; others 403', async () => {
      const m = await createRoleMatrix(t);
      for (const [code, actor] of Object.entries(m.byRole)) {
        const res = await http()
          .post('/api/oidc-clients')
          .set(actor.session.auth)
          .send({ name: `By ${code}`, type: 'public', redirectUris: [CALLBACK] });
        expect([code, res.status]).toEqual([code, ['SITE_ADMIN', 'E_SUPPORT'].includes(code) ? 201 : 403]);
      }
      const mine = (await http().get('/api/oidc-clients').set(m.byRole.SITE_ADMIN.session.auth).expect(200))
        .body as OidcClientItem[];
      expect(mine.map((c) => c.name)).toEqual(['By SITE_ADMIN']);
      expect(mine[0].organisationId).toBe(m.org.id);
      const deployment = (await http().get('/api/oidc-clients').set(support.auth).expect(200)).body as OidcClientItem[];
      expect(deployment.every((c) => c.organisationId === null)).toBe(true);
      expect(deployment.map((c) => c.name)).toContain('By E_SUPPORT');
      const forOrg = (await http().get(`/api/oidc-clients?organisationId=${m.org.id}`).set(support.auth).expect(200))
        .body as OidcClientItem[];
      expect(forOrg.map((c) => c.name)).toEqual(['By SITE_ADMIN']);
      // Another organisation's site admin: a 404 for each of its applications and its organisation.
      const other = m.otherOrgAdmin.session.auth;
      await http().get(`/api/oidc-clients?organisationId=${m.org.id}`).set(other).expect(404);
      for (const call of [
        http().put(`/api/oidc-clients/${mine[0].id}`).set(other).send({ name: 'x' }),
        http().post(`/api/oidc-clients/${mine[0].id}/rotate-secret`).set(other),
        http().delete(`/api/oidc-clients/${mine[0].id}`).set(other),
        http().delete(`/api/oidc-clients/${deploymentApp.id}`).set(m.byRole.SITE_ADMIN.session.auth),
      ])
        expectErrorBody(await call, 404);
    });

    it("is audited, and told to the organisation's webhooks as oidc_client.*", async () => {
      await http()
        .post('/api/webhooks')
        .set(siteAdmin.auth)
        .send({ url: `${receiver.url}/hooks`, events: ['oidc_client.created', 'oidc_client.deleted'] })
        .expect(201);
      const app = await register(siteAdmin, { name: 'Audited', type: 'public', redirectUris: [CALLBACK] });
      await http().delete(`/api/oidc-clients/${app.id}`).set(siteAdmin.auth).expect(200);
      const events = await t.db.getRepository(AuditEvent).findBy({ organisationId: org.id });
      const types = events.map((e) => e.type);
      expect(types).toEqual(expect.arrayContaining(['OIDC_CLIENT_CREATED', 'OIDC_CLIENT_REMOVED']));
      const deliveries = await t.db.getRepository(IntegrationDelivery).find();
      expect(deliveries.map((d) => d.type)).toEqual(
        expect.arrayContaining(['oidc_client.created', 'oidc_client.deleted']),
      );
    });

    it('shows a secret once, stores it sealed, and a rotation stops the old one', async () => {
      const app = await register(support, { name: 'Secretive', type: 'confidential', redirectUris: [CALLBACK] });
      expect(app.clientSecret).toEqual(expect.any(String));
      const row = await t.db.getRepository(OidcClient).findOneByOrFail({ id: app.id });
      expect(row.secretSealed).not.toContain(app.clientSecret!);
      const listed = (await http().get('/api/oidc-clients').set(support.auth).expect(200)).text;
      expect(listed).not.toContain(app.clientSecret!);
      const rotated = await http().post(`/api/oidc-clients/${app.id}/rotate-secret`).set(support.auth).expect(200);
      expect(rotated.body.clientSecret).not.toBe(app.clientSecret);
      // The old secret no longer authenticates at the token endpoint.
      const old = await http()
        .post('/oidc/token')
        .auth(app.clientId, app.clientSecret!)
        .type('form')
        .send({ grant_type: 'authorization_code', code: 'x', redirect_uri: CALLBACK, code_verifier: 'y'.repeat(43) });
      expect(old.status).toBe(401);
      expect(old.body.error).toBe('invalid_client');
      const fresh = await http()
        .post('/oidc/token')
        .auth(app.clientId, rotated.body.clientSecret as string)
        .type('form')
        .send({ grant_type: 'authorization_code', code: 'x', redirect_uri: CALLBACK, code_verifier: 'y'.repeat(43) });
      expect(fresh.body.error).toBe('invalid_grant');
      const pub = await register(support, { name: 'Public', type: 'public', redirectUris: [CALLBACK] });
      expect(pub.clientSecret).toBeUndefined();
      expectErrorBody(await http().post(`/api/oidc-clients/${pub.id}/rotate-secret`).set(support.auth), 400);
    });

    it('registering, changing, rotating and removing need a recent proof of identity', async () => {
      const admin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
      const app = await register(admin, { name: 'Stale', type: 'confidential', redirectUris: [CALLBACK] });
      await ageSession(t, admin, 120);
      for (const call of [
        http()
          .post('/api/oidc-clients')
          .set(admin.auth)
          .send({ name: 'x', type: 'public', redirectUris: [CALLBACK] }),
        http().put(`/api/oidc-clients/${app.id}`).set(admin.auth).send({ name: 'y' }),
        http().post(`/api/oidc-clients/${app.id}/rotate-secret`).set(admin.auth),
        http().delete(`/api/oidc-clients/${app.id}`).set(admin.auth),
      ]) {
        const res = await call;
        expectErrorBody(res, 403);
        expect(res.body.code).toBe('STEP_UP_REQUIRED');
      }
    });

    it('refuses redirect URIs that are not exact https (or loopback http for public applications) addresses', async () => {
      for (const uri of [
        'not a url',
        'https://app.example/cb#frag',
        'https://user:pw@app.example/cb',
        'javascript:alert(1)',
      ]) {
        const res = await http()
          .post('/api/oidc-clients')
          .set(support.auth)
          .send({ name: 'Bad', type: 'public', redirectUris: [uri] });
        expectErrorBody(res, 400);
      }
    });

    it('removing an application revokes every token it holds', async () => {
      const app = await register(support, { name: 'Doomed', type: 'confidential', redirectUris: [CALLBACK] });
      const config = await relyingParty(app);
      const { tokens } = await signIn(config, await signedInBrowser(member));
      await http().delete(`/api/oidc-clients/${app.id}`).set(support.auth).expect(200);
      const introspect = await http()
        .post('/oidc/token/introspection')
        .auth(deploymentApp.clientId, deploymentApp.clientSecret!)
        .type('form')
        .send({ token: tokens.access_token });
      expect(introspect.body.active).toBe(false);
      await expect(oidc.fetchUserInfo(config, tokens.access_token, String(member.id))).rejects.toBeDefined();
    });
  });

  describe('several instances', () => {
    it('instances starting together on an empty key table create one signing key', async () => {
      const keys = t.app.get(OidcKeysService);
      await t.db.getRepository(OidcSigningKey).clear();
      const sets = await Promise.all(Array.from({ length: 5 }, () => keys.signingKeys()));
      expect(await t.db.getRepository(OidcSigningKey).count()).toBe(1);
      expect(new Set(sets.map((set) => set.map((k) => k.kid).join()))).toEqual(new Set([sets[0][0].kid]));
      expect(sets[0][0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      const row = await t.db.getRepository(OidcSigningKey).findOneByOrFail({ kid: sets[0][0].kid });
      expect(row.privateJwkSealed).not.toContain(String(sets[0][0].d));
    });

    it('authorize on one instance, exchange and refresh on another sharing the database', async () => {
      const second = await createInstanceBeside(t, { PUBLIC_URL: issuer, ALLOW_PRIVATE_NETWORKS: 'true' });
      try {
        const config = await relyingParty(deploymentApp);
        const started = await authorizationUrl(config);
        const { location } = await (await signedInBrowser(member)).follow(started.url.href);
        const code = new URL(location!).searchParams.get('code')!;
        const basic = { user: deploymentApp.clientId, pass: deploymentApp.clientSecret! };
        const exchanged = await request(second.http)
          .post('/oidc/token')
          .auth(basic.user, basic.pass)
          .type('form')
          .send({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: started.verifier })
          .expect(200);
        const refreshed = await request(second.http)
          .post('/oidc/token')
          .auth(basic.user, basic.pass)
          .type('form')
          .send({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token })
          .expect(200);
        // The first instance sees the rotation: the used refresh token is reuse there too.
        const reused = await http()
          .post('/oidc/token')
          .auth(basic.user, basic.pass)
          .type('form')
          .send({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token });
        expect(reused.body.error).toBe('invalid_grant');
        const after = await request(second.http)
          .post('/oidc/token')
          .auth(basic.user, basic.pass)
          .type('form')
          .send({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token });
        expect(after.body.error).toBe('invalid_grant');
        // Both publish the same keys, a rotation on one at once on the other.
        await http().post('/api/oidc/keys/rotate').set(support.auth).expect(200);
        const a = await http().get('/oidc/jwks').expect(200);
        const b = await request(second.http).get('/oidc/jwks').expect(200);
        expect(b.body).toEqual(a.body);
      } finally {
        await second.app.close();
      }
    });
  });
});

describe('The OpenID provider under a flood', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("throttles the endpoints that check an application's secret per address (429 with Retry-After)", async () => {
    const statuses: number[] = [];
    const one = () =>
      request(t.http)
        .post('/oidc/token')
        .auth('app_unknown', 'guess')
        .type('form')
        .send({ grant_type: 'authorization_code', code: 'x', redirect_uri: CALLBACK, code_verifier: 'y'.repeat(43) });
    for (let sent = 0; sent < RATE_LIMITS.PER_ADDRESS_ANONYMOUS; sent += 100)
      statuses.push(...(await Promise.all(Array.from({ length: 100 }, one))).map((r) => r.status));
    expect(statuses.every((s) => s === 401)).toBe(true);
    const refused = await one();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.error).toBe('invalid_request');
  });
});
