import { inflateRawSync } from 'node:zlib';
import { encrypt } from '../../../platform/crypto/secrets';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { Session } from '../../sessions/entities/session.entity';
import { SessionsService } from '../../sessions/sessions.service';
import { createOidcConnection, createOrganisation, createUser } from '../../../../test/utils/factories';
import { startOrgOidcProvider } from '../../../../test/utils/identity-providers/oidc';
import { startTestIdp, TestIdp } from '../../../../test/utils/identity-providers/saml-idp';
import { SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { samlConnection, verifyDomain } from '../../../../test/utils/identity-providers/sso';
import { SsoConnection } from '../entities/sso-connection.entity';
import { FederatedSignInService } from '../sign-in/federated-sign-in.service';
import { SsoLogoutService } from './sso-logout.service';
import { ssoUrls } from '../round-trip/sso-urls';
import { testSecret } from '../../../../test/utils/secrets';

const CLIENT = { client_id: 'portal-logout', client_secret: testSecret('logout') };
const ID_TOKEN = testSecret('id-token');

let provider: { issuer: string; stop: () => void };
let idp: TestIdp;
let idpWithoutSlo: TestIdp;
beforeAll(async () => {
  [provider, idp, idpWithoutSlo] = await Promise.all([
    startOrgOidcProvider([{ ...CLIENT, redirect_uris: ['http://portal.test/callback'] }]),
    startTestIdp('slo'),
    startTestIdp('noslo', false),
  ]);
}, 60_000);
afterAll(() => provider.stop());

describe.each(SERVICE_DATABASES)('SsoLogoutService on %s', (database) => {
  const t = serviceApp(database, { SSO_ALLOW_PRIVATE_NETWORKS: 'true' });
  const logout = () => t().app.get(SsoLogoutService);
  const client = { ip: '198.51.100.7', userAgent: 'browser' };
  let seq = 0;
  const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

  /** A person of a new organisation signed in through the connection `connect` makes; their session's id. */
  async function signedInThrough(
    connect: (org: Organisation) => Promise<SsoConnection>,
    identity: { idToken?: string; providerSessionId?: string; nameIdFormat?: string } = {},
    overrides: Partial<Organisation> = {},
  ) {
    const org = await createOrganisation(t(), overrides);
    const domain = `l${uniq()}.example`;
    await verifyDomain(t(), org, domain);
    const user = await createUser(t(), org, { email: `p-${uniq()}@${domain}` });
    const c = await connect(org);
    await t()
      .app.get(FederatedSignInService)
      .signIn(c, { subject: user.email, email: user.email, ...identity }, client);
    const session = await t().db.getRepository(Session).findOneByOrFail({ userId: user.id });
    return { org, user, c, sessionId: session.id };
  }
  const oidcConnection = (org: Organisation) =>
    createOidcConnection(t(), org, {
      oidcIssuer: provider.issuer,
      oidcClientId: CLIENT.client_id,
      oidcClientSecret: encrypt(CLIENT.client_secret, t().config.encryptionKey),
    });

  it("sends an OpenID Connect session to the provider's end-session endpoint with its ID token and our logIn page", async () => {
    const { c, sessionId } = await signedInThrough(oidcConnection, { idToken: ID_TOKEN });
    const url = new URL((await logout().logoutUrl(sessionId))!);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('id_token_hint')).toBe(ID_TOKEN);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(ssoUrls(t().config.publicUrl, c.id).afterLogout);
  });

  it("sends a SAML session to the IdP's single logout service with its NameID and SessionIndex", async () => {
    const { user, sessionId } = await signedInThrough(async (org) => (await samlConnection(t(), org, idp)).c, {
      providerSessionId: 'session-index-1',
    });
    const url = new URL((await logout().logoutUrl(sessionId))!);
    expect(`${url.origin}${url.pathname}`).toBe(idp.sloUrl);
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString();
    expect(request).toContain(`>${user.email}</`);
    expect(request).toContain('>session-index-1</');
  });

  it("falls back to the organisation's SSO logout URL, and sends a password session nowhere", async () => {
    const { sessionId } = await signedInThrough(
      async (org) => (await samlConnection(t(), org, idpWithoutSlo)).c,
      {},
      { ssoLogoutUrl: 'https://intranet.example/signed-out' },
    );
    expect(await logout().logoutUrl(sessionId)).toBe('https://intranet.example/signed-out');

    const org = await createOrganisation(t(), { ssoLogoutUrl: 'https://intranet.example/signed-out' });
    const user = await createUser(t(), org);
    const { session } = await t().app.get(SessionsService).start(user, client);
    expect(await logout().logoutUrl(session.id)).toBeUndefined();
    expect(await logout().logoutUrl('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });
});
