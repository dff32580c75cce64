import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { Session } from '../../sessions/entities/session.entity';
import { ERROR_CODES } from '../../../shared/messages';
import { createOrganisation, createUser } from '../../../../test/utils/factories';
import {
  deploymentWideProvider,
  hostileOidcProviderForFile,
} from '../../../../test/utils/identity-providers/hostile-oidc-provider';
import { refusalOf, SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { DEPLOYMENT_WIDE, OidcConnector, OidcTransaction } from '../connectors/oidc-connector';
import { DeploymentWideSignIn } from './deployment-wide-sign-in.service';
import { testSecret } from '../../../../test/utils/secrets';

const CLIENT = { id: 'portal-deployment', secret: testSecret('deployment') };

const provider = hostileOidcProviderForFile();

describe.each(SERVICE_DATABASES)('DeploymentWideSignIn through the OIDC connector on %s', (database) => {
  const t = serviceApp(database, deploymentWideProvider(provider, CLIENT));
  const oidc = () => t().app.get(OidcConnector);
  const client = { ip: '203.0.113.12', userAgent: 'browser' };
  /** The callback's sign-in: the identity the provider proves through the connector, then this service's rules. */
  const finish = async (callback: URL, transaction: OidcTransaction) =>
    t()
      .app.get(DeploymentWideSignIn)
      .signIn(await oidc().finish(DEPLOYMENT_WIDE, callback, transaction), client);
  let seq = 0;
  const email = () => `d-${Date.now().toString(36)}${(seq++).toString(36)}@corp.example`;

  /** The browser's round trip: start, the person signs in at the provider as `login`, the callback URL comes back. */
  async function roundTrip(login: string, reauthenticate = false) {
    const { url, transaction } = await oidc().start(DEPLOYMENT_WIDE, undefined, reauthenticate);
    const callback = new URL(provider().authorize(url, login), t().config.publicUrl);
    return { url: new URL(url), callback, transaction };
  }
  const ssoOrganisation = (overrides: Partial<Organisation> = {}) =>
    createOrganisation(t(), { isSSOEnabled: true, ...overrides });

  it('starts a code flow with PKCE and the scopes openid email, to our callback; prompt=login to re-authenticate', async () => {
    const { url } = await roundTrip('x@corp.example');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT.id,
      redirect_uri: `${t().config.publicUrl}/callback`,
      response_type: 'code',
      scope: 'openid email',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('prompt')).toBeNull();
    const fresh = await roundTrip('x@corp.example', true);
    expect(fresh.url.searchParams.get('prompt')).toBe('login');
    expect(fresh.url.searchParams.get('max_age')).toBe('0');
  });

  it('signs in an enabled SSO account of an organisation with SSO on, by the e-mail the provider proves', async () => {
    const user = await createUser(t(), await ssoOrganisation(), { email: email(), isSSO: true });
    const { callback, transaction } = await roundTrip(user.email.toUpperCase());
    const signedIn = await finish(callback, transaction);
    expect(signedIn.accessToken).toEqual(expect.any(String));
    expect(await t().db.getRepository(Session).findOneByOrFail({ userId: user.id })).toMatchObject({ method: 'sso' });
  });

  it('refuses an account not marked for SSO, of an organisation without SSO, disabled, or unknown', async () => {
    const notSso = await createUser(t(), await ssoOrganisation(), { email: email(), isSSO: false });
    const orgOff = await createUser(t(), await ssoOrganisation({ isSSOEnabled: false }), {
      email: email(),
      isSSO: true,
    });
    const disabled = await createUser(t(), await ssoOrganisation(), { email: email(), isSSO: true, isDisabled: true });
    for (const login of [notSso.email, orgOff.email, email()]) {
      const { callback, transaction } = await roundTrip(login);
      expect(await refusalOf(finish(callback, transaction))).toEqual({
        status: 403,
        code: ERROR_CODES.SSO_NOT_ALLOWED,
      });
    }
    const { callback, transaction } = await roundTrip(disabled.email);
    expect(await refusalOf(finish(callback, transaction))).toEqual({
      status: 403,
      code: ERROR_CODES.ACCOUNT_DISABLED,
    });
    expect(await t().db.getRepository(Session).countBy({ userId: disabled.id })).toBe(0);
  });

  it("refuses another transaction's nonce, and an e-mail the provider has not verified", async () => {
    const user = await createUser(t(), await ssoOrganisation(), { email: email(), isSSO: true });
    const first = await roundTrip(user.email);
    const second = await roundTrip(user.email);
    expect(await refusalOf(finish(second.callback, first.transaction))).toEqual({
      status: 401,
      code: ERROR_CODES.SSO_FAILED,
    });
    provider().mint = (r) => provider().idToken(r, { email_verified: false });
    const third = await roundTrip(user.email);
    expect(await refusalOf(finish(third.callback, third.transaction))).toEqual({
      status: 401,
      code: ERROR_CODES.SSO_FAILED,
    });
    expect(await t().db.getRepository(Session).countBy({ userId: user.id })).toBe(0);
  });
});
