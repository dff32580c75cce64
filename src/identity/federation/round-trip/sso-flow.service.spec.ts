import { Request, Response } from 'express';
import { encrypt } from '../../../platform/crypto/secrets';
import { REFRESH_COOKIE } from '../../../platform/web/http/refresh-cookie';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { Session } from '../../sessions/entities/session.entity';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { createOidcConnection, createOrganisation, createUser } from '../../../../test/utils/factories';
import {
  HostileOidcProvider,
  startHostileOidcProvider,
} from '../../../../test/utils/identity-providers/hostile-oidc-provider';
import { startTestIdp, TestIdp } from '../../../../test/utils/identity-providers/saml-idp';
import { SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { samlConnection, verifyDomain } from '../../../../test/utils/identity-providers/sso';
import { TRANSACTION_COOKIE } from './round-trip-state';
import { SsoFlowService } from './sso-flow.service';
import { testSecret } from '../../../../test/utils/secrets';

const CLIENT_ID = 'portal-flow';

/** What the browser was told: where to go, and the cookies set and cleared. */
class BrowserAnswer {
  location?: string;
  cookies = new Map<string, string>();
  cleared: string[] = [];
  readonly res = {
    redirect: (_status: number, url: string) => {
      this.location = url;
    },
    cookie: (name: string, value: string) => {
      this.cookies.set(name, value);
    },
    clearCookie: (name: string) => {
      this.cleared.push(name);
    },
  } as unknown as Response;
  /** The sign-in page's reason, when the round trip ended there. */
  get loginError(): string | null {
    return this.location?.startsWith('/logIn?')
      ? new URL(this.location, 'http://x').searchParams.get('ssoError')
      : null;
  }
}

let provider: HostileOidcProvider;
let idp: TestIdp;
beforeAll(async () => {
  [provider, idp] = await Promise.all([startHostileOidcProvider(), startTestIdp('flow')]);
});
afterAll(async () => {
  await provider.stop();
});

describe.each(SERVICE_DATABASES)('SsoFlowService on %s', (database) => {
  const t = serviceApp(database, { SSO_ALLOW_PRIVATE_NETWORKS: 'true' });
  const flow = () => t().app.get(SsoFlowService);
  let seq = 0;
  const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

  async function organisation() {
    const org = await createOrganisation(t());
    const domain = `w${uniq()}.example`;
    await verifyDomain(t(), org, domain);
    return { org, domain };
  }
  const oidcConnection = (org: Organisation, enabled = true) =>
    createOidcConnection(t(), org, {
      enabled,
      oidcIssuer: provider.issuer,
      oidcClientId: CLIENT_ID,
      oidcClientSecret: encrypt(testSecret('client'), t().config.encryptionKey),
    });
  /** The browser coming back to /callback with the provider's answer and the transaction cookie it was given. */
  const callbackRequest = (path: string, cookie: string | undefined) =>
    ({
      originalUrl: path,
      url: path,
      ip: '203.0.113.20',
      headers: { 'user-agent': 'browser' },
      cookies: cookie ? { [TRANSACTION_COOKIE]: cookie } : {},
    }) as unknown as Request;

  it('goes to the provider and back signed in, once: the same answer again ends on the sign-in page', async () => {
    const { org, domain } = await organisation();
    const user = await createUser(t(), org, { email: `ann-${uniq()}@${domain}` });
    const c = await oidcConnection(org);
    const started = new BrowserAnswer();
    await flow().start(c.id, started.res, { loginHint: user.email });
    expect(started.location!.startsWith(`${provider.issuer}/authorize?`)).toBe(true);
    expect(new URL(started.location!).searchParams.get('login_hint')).toBe(user.email);
    const cookie = started.cookies.get(TRANSACTION_COOKIE);
    const path = provider.authorize(started.location!, user.email);

    const back = new BrowserAnswer();
    await flow().oidcCallback(callbackRequest(path, cookie), back.res);
    expect(back.location).toBe('/');
    expect(back.cookies.get(REFRESH_COOKIE)).toEqual(expect.any(String));
    expect(back.cleared).toContain(TRANSACTION_COOKIE);
    expect(await t().db.getRepository(Session).countBy({ userId: user.id })).toBe(1);

    const replay = new BrowserAnswer();
    await flow().oidcCallback(callbackRequest(path, cookie), replay.res);
    expect(replay.loginError).toEqual(expect.any(String));
    expect(await t().db.getRepository(Session).countBy({ userId: user.id })).toBe(1);
  });

  it('refuses a disabled connection, an unknown one, and a callback without its transaction, on the sign-in page', async () => {
    const { org } = await organisation();
    const off = await oidcConnection(org, false);
    const disabled = new BrowserAnswer();
    await flow().start(off.id, disabled.res);
    expect(disabled.loginError).toBe(SSO_MESSAGES.DISABLED);
    const unknown = new BrowserAnswer();
    await flow().start(999_999, unknown.res);
    expect(unknown.loginError).toBe(SSO_MESSAGES.NOT_FOUND);
    const lost = new BrowserAnswer();
    await flow().oidcCallback(callbackRequest('/callback?code=x&state=y', undefined), lost.res);
    expect(lost.loginError).toEqual(expect.any(String));
  });

  it('signs in through a SAML connection with a signed response once, and serves SAML metadata only for SAML connections', async () => {
    const { org, domain } = await organisation();
    const user = await createUser(t(), org, { email: `sue-${uniq()}@${domain}` });
    const { c, audience, acsUrl } = await samlConnection(t(), org, idp);
    const started = new BrowserAnswer();
    await flow().start(c.id, started.res);
    const request = idp.readRequest(started.location!);
    expect(request.forceAuthn).toBe(false);
    const response = idp.respond({
      inResponseTo: request.id,
      acsUrl,
      audience,
      nameId: 'persistent-sue',
      email: user.email,
    });
    const client = { ip: '203.0.113.21', userAgent: 'browser' };

    const back = new BrowserAnswer();
    await flow().samlAcs(c.id, response, client, back.res);
    expect(back.location).toBe('/');
    expect(await t().db.getRepository(Session).countBy({ userId: user.id })).toBe(1);

    const replayed = new BrowserAnswer();
    await flow().samlAcs(c.id, response, client, replayed.res);
    expect(replayed.loginError).toEqual(expect.any(String));
    expect(await t().db.getRepository(Session).countBy({ userId: user.id })).toBe(1);
    await expect(flow().samlMetadata(c.id)).resolves.toContain(audience);
    await expect(flow().samlMetadata((await oidcConnection(org)).id)).rejects.toMatchObject({ status: 404 });
  });
});
