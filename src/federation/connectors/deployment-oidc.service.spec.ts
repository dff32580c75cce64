import { Organisation } from '../../database/entities/organisation.entity';
import { Session } from '../../sessions/entities/session.entity';
import { SessionsService } from '../../sessions/sessions.service';
import { ERROR_CODES } from '../../shared/messages';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { HostileOidcProvider, startHostileOidcProvider } from '../../../test/utils/hostile-oidc-provider';
import { refusalOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { SsoService } from './deployment-oidc.service';

const CLIENT = { id: 'portal-deployment', secret: 'deployment-client-secret-0123456789' };

let provider: HostileOidcProvider;
beforeAll(async () => {
  provider = await startHostileOidcProvider();
});
afterAll(async () => {
  await provider.stop();
});
afterEach(() => {
  provider.mint = (r) => provider.idToken(r);
});

describe.each(SERVICE_DATABASES)('SsoService (the deployment-wide provider) on %s', (database) => {
  const t = serviceApp(database, {
    get OIDC_ISSUER() {
      return provider.issuer;
    },
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
  } as Record<string, string>);
  const sso = () => t().app.get(SsoService);
  const client = { ip: '203.0.113.12', userAgent: 'browser' };
  let seq = 0;
  const email = () => `d-${Date.now().toString(36)}${(seq++).toString(36)}@corp.example`;

  /** The browser's round trip: start, the person signs in at the provider as `login`, the callback URL comes back. */
  async function roundTrip(login: string, reauthenticate = false) {
    const { url, transaction } = await sso().start({ reauthenticate });
    const callback = new URL(provider.authorize(url, login), t().config.publicUrl);
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
    const signedIn = await sso().finish(callback, transaction, client);
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
      expect(await refusalOf(sso().finish(callback, transaction, client))).toEqual({
        status: 403,
        code: ERROR_CODES.SSO_NOT_ALLOWED,
      });
    }
    const { callback, transaction } = await roundTrip(disabled.email);
    expect(await refusalOf(sso().finish(callback, transaction, client))).toEqual({
      status: 403,
      code: ERROR_CODES.ACCOUNT_DISABLED,
    });
    expect(await t().db.getRepository(Session).countBy({ userId: disabled.id })).toBe(0);
  });

  it("refuses a round trip without its state, another transaction's nonce, and an e-mail the provider has not verified", async () => {
    const user = await createUser(t(), await ssoOrganisation(), { email: email(), isSSO: true });
    const first = await roundTrip(user.email);
    expect(await refusalOf(sso().finish(first.callback, undefined, client))).toEqual({
      status: 400,
      code: ERROR_CODES.SSO_STATE_MISSING,
    });
    const second = await roundTrip(user.email);
    expect(await refusalOf(sso().finish(second.callback, first.transaction, client))).toEqual({
      status: 401,
      code: ERROR_CODES.SSO_FAILED,
    });
    provider.mint = (r) => provider.idToken(r, { email_verified: false });
    const third = await roundTrip(user.email);
    expect(await refusalOf(sso().finish(third.callback, third.transaction, client))).toEqual({
      status: 401,
      code: ERROR_CODES.SSO_FAILED,
    });
    expect(await t().db.getRepository(Session).countBy({ userId: user.id })).toBe(0);
  });

  it("steps up the ticket's session only for its own account, after a fresh authentication", async () => {
    const org = await ssoOrganisation();
    const user = await createUser(t(), org, { email: email(), isSSO: true });
    const other = await createUser(t(), org, { email: email(), isSSO: true });
    const { session } = await t().app.get(SessionsService).start(user, client);
    const stepUp = { sid: session.id, sub: user.id, returnTo: '/' };
    const before = (await t().db.getRepository(Session).findOneByOrFail({ id: session.id })).authenticatedAt;

    const stranger = await roundTrip(other.email, true);
    expect(await refusalOf(sso().finishStepUp(stranger.callback, stranger.transaction, stepUp, client))).toEqual({
      status: 403,
      code: ERROR_CODES.SSO_NOT_ALLOWED,
    });
    provider.mint = (r) => provider.idToken(r, { auth_time: Math.floor(Date.now() / 1000) - 3600 });
    const stale = await roundTrip(user.email, true);
    expect(await refusalOf(sso().finishStepUp(stale.callback, stale.transaction, stepUp, client))).toEqual({
      status: 401,
      code: ERROR_CODES.SSO_FAILED,
    });
    expect((await t().db.getRepository(Session).findOneByOrFail({ id: session.id })).authenticatedAt).toEqual(before);

    provider.mint = (r) => provider.idToken(r);
    const fresh = await roundTrip(user.email, true);
    await sso().finishStepUp(fresh.callback, fresh.transaction, stepUp, client);
    const after = (await t().db.getRepository(Session).findOneByOrFail({ id: session.id })).authenticatedAt;
    expect(after).not.toEqual(before);
    expect(await t().db.getRepository(Session).countBy({ userId: user.id })).toBe(1);
  });
});
