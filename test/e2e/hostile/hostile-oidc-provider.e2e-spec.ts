import * as oidc from 'openid-client';
import request from 'supertest';
import { User } from '../../../src/platform/database/entities/user.entity';
import { NewOidcClient } from '../../../src/shared/identity/oidc-clients';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn, PASSWORD } from '../../utils/factories';
import { Browser, freePort } from '../../utils/identity-providers/relying-party';
import { createTestApp, TestApp } from '../../utils/test-app';

const CALLBACK = 'https://app.example/callback';

/**
 * An attacker's list against the portal's OpenID provider (docs/oidc-provider.md): codes and refresh tokens replayed,
 * also at the same moment; request objects unsigned or HMAC-signed; redirect and post-logout addresses bent toward
 * another site; the consent screen posted from another site or another browser.
 */
describe('Attacks on the OpenID provider', () => {
  let t: TestApp;
  let issuer: string;
  let app: NewOidcClient;
  let orgApp: NewOidcClient;
  let member: User;
  let support: LoggedIn;

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: issuer });
    await new Promise<void>((resolve) => t.http.listen(port, '127.0.0.1', resolve));
    const vendor = await createOrganisation(t, { isVendor: true });
    const org = await createOrganisation(t);
    support = await login(t, (await createUser(t, vendor, { roleId: Role.E_SUPPORT })).email);
    const siteAdmin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
    member = await createUser(t, org, { roleId: Role.ANALYST });
    const register = async (as: LoggedIn, body: object) =>
      (await request(t.http).post('/api/oidc-clients').set(as.auth).send(body).expect(201)).body as NewOidcClient;
    app = await register(support, {
      name: 'Target',
      type: 'confidential',
      redirectUris: [CALLBACK],
      postLogoutRedirectUris: ['https://app.example/bye'],
    });
    orgApp = await register(siteAdmin, { name: 'Org target', type: 'confidential', redirectUris: [CALLBACK] });
  });
  afterAll(() => t.close());

  const rp = (client: NewOidcClient) =>
    oidc.discovery(
      new URL(issuer),
      client.clientId,
      client.clientSecret!,
      oidc.ClientSecretBasic(client.clientSecret!),
      {
        execute: [oidc.allowInsecureRequests],
      },
    );

  async function browser(): Promise<Browser> {
    const b = new Browser(issuer);
    const res = await b.request('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: member.email, password: PASSWORD, acceptToS: true }),
    });
    expect(res.status).toBe(200);
    return b;
  }

  async function code(config: oidc.Configuration, scope = 'openid offline_access') {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope,
      prompt: 'consent',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const { location } = await (await browser()).follow(url.href);
    return { callback: new URL(location!), verifier };
  }

  const exchange = (codeValue: string, verifier: string) =>
    request(t.http)
      .post('/oidc/token')
      .auth(app.clientId, app.clientSecret!)
      .type('form')
      .send({ grant_type: 'authorization_code', code: codeValue, redirect_uri: CALLBACK, code_verifier: verifier });

  it('a code exchanged ten times at once yields tokens at most once, and the replay revokes them', async () => {
    const config = await rp(app);
    const { callback, verifier } = await code(config);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => exchange(callback.searchParams.get('code')!, verifier)),
    );
    // At most one exchange wins. A replay may revoke the grant before the winner has issued its tokens (RFC 6749
    // §4.1.2: deny the reuse, revoke what the code gave), so none winning is as right as one.
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.body.error === 'invalid_grant')).toBe(true);
    // Whatever the race let through, the replays revoked it.
    for (const a of ok)
      await expect(oidc.fetchUserInfo(config, a.body.access_token as string, String(member.id))).rejects.toBeDefined();
  });

  it('a code with the wrong PKCE verifier is refused', async () => {
    const { callback } = await code(await rp(app));
    const res = await exchange(callback.searchParams.get('code')!, 'x'.repeat(43));
    expect(res.body.error).toBe('invalid_grant');
  });

  it("a code is bound to its application: another application's secret cannot redeem it", async () => {
    const { callback, verifier } = await code(await rp(app));
    const res = await request(t.http)
      .post('/oidc/token')
      .auth(orgApp.clientId, orgApp.clientSecret!)
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
      });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('a refresh token used five times at once rotates once; the reuse revokes the grant', async () => {
    const config = await rp(app);
    const { callback, verifier } = await code(config);
    const tokens = (await exchange(callback.searchParams.get('code')!, verifier).expect(200)).body as {
      refresh_token: string;
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        request(t.http)
          .post('/oidc/token')
          .auth(app.clientId, app.clientSecret!)
          .type('form')
          .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
      ),
    );
    const rotated = answers.filter((a) => a.status === 200).map((a) => a.body.refresh_token as string);
    expect(rotated.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.body.error === 'invalid_grant')).toBe(true);
    for (const fresh of rotated)
      await expect(oidc.refreshTokenGrant(config, fresh)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it.each([
    ['another site', 'https://evil.example/callback'],
    ['a longer path', `${CALLBACK}/../../evil`],
    ['an added query', `${CALLBACK}?next=https://evil.example`],
    ['a trailing slash', `${CALLBACK}/`],
    ['another scheme', CALLBACK.replace('https:', 'http:')],
    ['credentials before the host', 'https://app.example@evil.example/callback'],
    ['another letter case', CALLBACK.replace('app.example', 'APP.example')],
    ['an encoded slash', 'https://app.example%2F@evil.example/callback'],
  ])('redirect_uri bent to %s: an error page, never a redirect', async (_what, redirectUri) => {
    const url = new URL(`${issuer}/oidc/auth`);
    url.search = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const res = await (await browser()).request(url.href);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).not.toContain('evil.example');
  });

  it.each([
    ['another site', 'https://evil.example/bye'],
    ['an added query', 'https://app.example/bye?next=https://evil.example'],
    ['a protocol-relative address', '//evil.example/bye'],
  ])('post_logout_redirect_uri bent to %s: refused without a redirect', async (_what, uri) => {
    const res = await request(t.http)
      .get('/oidc/session/end')
      .query({ client_id: app.clientId, post_logout_redirect_uri: uri });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it.each([
    ['alg none', 'none', ''],
    ['HS256 keyed with the client secret', 'HS256', 'c2lnbmF0dXJl'],
  ])('a request object (%s) carrying another redirect_uri is refused', async (_what, alg, signature) => {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const jwt = `${part({ alg, typ: 'oauth-authz-req+jwt' })}.${part({
      iss: app.clientId,
      aud: issuer,
      client_id: app.clientId,
      redirect_uri: 'https://evil.example/callback',
      response_type: 'code',
      scope: 'openid',
    })}.${signature}`;
    const url = new URL(`${issuer}/oidc/auth`);
    url.search = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid',
      request: jwt,
    }).toString();
    const { res, location } = await (await browser()).follow(url.href);
    if (location) {
      expect(location.startsWith(CALLBACK)).toBe(true);
      expect(new URL(location).searchParams.get('error')).toEqual(expect.any(String));
      expect(new URL(location).searchParams.get('code')).toBeNull();
    } else expect(res.status).toBe(400);
    expect(location ?? '').not.toContain('evil.example');
  });

  it('the consent screen cannot be confirmed from another site or another browser (no interaction cookie)', async () => {
    const config = await rp(orgApp);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const victim = await browser();
    const { res } = await victim.follow(url.href);
    const page = await res.text();
    const action = /action="([^"]+confirm)"/.exec(page)![1].replace(/&#47;/g, '/');
    // The attacker's page posts it from the victim's browser without the SameSite=Lax interaction cookie, or from
    // the attacker's own signed-in browser.
    const forged = await request(t.http).post(action);
    expect(forged.status).toBe(400);
    expect(forged.headers.location).toBeUndefined();
    const attacker = await browser();
    const stolen = await attacker.request(action, { method: 'POST' });
    expect(stolen.status).toBe(400);
    expect(stolen.headers.get('location')).toBeNull();
  });
});
