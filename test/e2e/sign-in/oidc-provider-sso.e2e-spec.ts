import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import request from 'supertest';
import { encrypt } from '../../../src/platform/crypto/secrets';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { NewOidcClient } from '../../../src/shared/identity/oidc-clients';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { signInAtProvider, startOrgOidcProvider } from '../../utils/identity-providers/oidc';
import { Browser, freePort } from '../../utils/identity-providers/relying-party';
import { verifyDomain } from '../../utils/identity-providers/sso';
import { createTestApp, TestApp } from '../../utils/test-app';

const CALLBACK = 'http://127.0.0.1:9/callback';

/**
 * An application's sign-in through the organisation's own identity provider (docs/oidc-provider.md): /oidc/auth
 * without a portal session sends the browser to the login card, whose corporate sign-in carries the provider's
 * return path through the round trip, and ends back at the application with a code.
 */
describe("The OpenID provider's sign-in through the organisation's SSO", () => {
  let t: TestApp;
  let issuer: string;
  let orgProvider: { issuer: string; stop: () => void };
  let org: Organisation;
  let member: User;
  let connection: SsoConnection;
  let app: NewOidcClient;

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    orgProvider = await startOrgOidcProvider([
      { client_id: 'portal', client_secret: 'secret-of-the-portal', redirect_uris: [`${issuer}/callback`] },
    ]);
    t = await createTestApp({ PUBLIC_URL: issuer, ALLOW_PRIVATE_NETWORKS: 'true', SSO_ALLOW_PRIVATE_NETWORKS: 'true' });
    await new Promise<void>((resolve) => t.http.listen(port, '127.0.0.1', resolve));
    const vendor = await createOrganisation(t, { isVendor: true });
    org = await createOrganisation(t, { applications: ['TAX_MANAGER'] });
    const domain = `sso-${Date.now().toString(36)}.example`;
    await verifyDomain(t, org, domain);
    member = await createUser(t, org, { email: `olga@${domain}`, passwordHash: null, roleId: Role.ANALYST });
    connection = await t.db.getRepository(SsoConnection).save(
      t.db.getRepository(SsoConnection).create({
        organisationId: org.id,
        protocol: 'oidc',
        name: 'Acme Okta',
        enabled: true,
        jitProvisioning: false,
        oidcIssuer: orgProvider.issuer,
        oidcClientId: 'portal',
        oidcClientSecret: encrypt('secret-of-the-portal', t.config.encryptionKey),
      }),
    );
    const support = await login(t, (await createUser(t, vendor, { roleId: Role.E_SUPPORT })).email);
    const res = await request(t.http)
      .post('/api/oidc-clients')
      .set(support.auth)
      .send({ name: 'Tax manager', type: 'confidential', redirectUris: [CALLBACK] })
      .expect(201);
    app = res.body as NewOidcClient;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    orgProvider?.stop();
  });

  function relyingParty(): Promise<oidc.Configuration> {
    return oidc.discovery(
      new URL(issuer),
      app.clientId,
      { client_secret: app.clientSecret },
      oidc.ClientSecretBasic(app.clientSecret!),
      { execute: [oidc.allowInsecureRequests] },
    );
  }

  /** The card's corporate sign-in as the client starts it: the discovered start, with `returnTo` when given. */
  async function corporateSignIn(browser: Browser, returnTo: string | null): Promise<string> {
    const found = await request(t.http).post('/auth/sso/discover').send({ email: member.email }).expect(200);
    expect(found.body).toMatchObject({ sso: true, url: expect.stringMatching(`^/auth/sso/${connection.id}\\?`) });
    const url = returnTo ? `${found.body.url}&returnTo=${encodeURIComponent(returnTo)}` : found.body.url;
    const start = await browser.request(url);
    expect(start.status).toBe(302);
    expect(start.headers.get('location')!.startsWith(orgProvider.issuer)).toBe(true);
    return signInAtProvider(start.headers.get('location')!, member.email);
  }

  it("authorize → the login card → the organisation's provider → back at the application with a code", async () => {
    const config = await relyingParty();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const browser = new Browser(issuer);
    const card = await browser.follow(authorize.href);
    const cardUrl = new URL(card.location!);
    expect(cardUrl.pathname).toBe('/logIn');
    const returnTo = cardUrl.searchParams.get('returnTo')!;
    expect(returnTo).toMatch(/^\/oidc\/interaction\/[\w-]+$/);

    const callback = await corporateSignIn(browser, returnTo);
    expect(new URL(callback).pathname).toBe('/callback');
    const back = await browser.request(callback);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(returnTo);

    const { location } = await browser.follow(back.headers.get('location')!);
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(location!), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(decodeJwt(tokens.id_token!)).toMatchObject({ sub: String(member.id), email: member.email });
    // The portal's own pages are signed in by the same round trip.
    expect(browser.cookies.get('refreshToken')).toBeTruthy();
  });

  it('a return path outside the provider, or off this origin, is dropped: the sign-in ends on the portal', async () => {
    for (const returnTo of ['/users', '//evil.example/oidc/x', `${'https://evil.example'}/oidc/interaction/x`]) {
      const browser = new Browser(issuer);
      const back = await browser.request(await corporateSignIn(browser, returnTo));
      expect(back.status).toBe(302);
      expect(back.headers.get('location')).toBe('/');
    }
  });
});
