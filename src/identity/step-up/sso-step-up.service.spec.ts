import { Request, Response } from 'express';
import { AuthUser } from '../../platform/web/auth-user';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { SsoFlowService } from '../federation/round-trip/sso-flow.service';
import { TRANSACTION_COOKIE } from '../federation/round-trip/round-trip-state';
import { Session } from '../sessions/entities/session.entity';
import { SessionsService } from '../sessions/sessions.service';
import { SSO_MESSAGES } from '../../shared/identity/sso';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import {
  deploymentWideProvider,
  hostileOidcProviderForFile,
} from '../../../test/utils/identity-providers/hostile-oidc-provider';
import { SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { StepUpService } from './step-up.service';
import { testSecret } from '../../../test/utils/secrets';

const CLIENT = { id: 'portal-step-up', secret: testSecret('step-up') };

const provider = hostileOidcProviderForFile();

/** What the browser was told: where to go, and the transaction cookie. */
class BrowserAnswer {
  location = '';
  cookie?: string;
  readonly res = {
    redirect: (_status: number, url: string) => {
      this.location = url;
    },
    cookie: (name: string, value: string) => {
      if (name === TRANSACTION_COOKIE) this.cookie = value;
    },
    clearCookie: () => undefined,
  } as unknown as Response;
}

describe.each(SERVICE_DATABASES)('SsoStepUpRoundTrip at the deployment-wide provider on %s', (database) => {
  const t = serviceApp(database, deploymentWideProvider(provider, CLIENT));
  const flow = () => t().app.get(SsoFlowService);
  const client = { ip: '203.0.113.14', userAgent: 'browser' };
  let seq = 0;
  const email = () => `s-${Date.now().toString(36)}${(seq++).toString(36)}@corp.example`;

  /** POST /auth/step-up/sso's ticket, the start, the person at the provider as `login`, and the callback. */
  async function stepUpAs(caller: AuthUser, login: string): Promise<URL> {
    const ticket = t().app.get(StepUpService).ssoTicket(caller, '/users?page=2');
    const started = new BrowserAnswer();
    await flow().startDeploymentWide(started.res, { prompt: 'login', tickets: { stepUp: ticket } });
    const authorize = new URL(started.location);
    expect(authorize.searchParams.get('prompt')).toBe('login');
    expect(authorize.searchParams.get('max_age')).toBe('0');
    const callback = new URL(provider().authorize(started.location, login), t().config.publicUrl);
    const back = new BrowserAnswer();
    const path = `${callback.pathname}${callback.search}`;
    const req = {
      originalUrl: path,
      url: path,
      ip: client.ip,
      headers: { 'user-agent': client.userAgent },
      cookies: { [TRANSACTION_COOKIE]: started.cookie },
    } as unknown as Request;
    await flow().oidcCallback(req, back.res);
    return new URL(back.location, 'http://x');
  }

  it("marks the ticket's session only for its own account, after a fresh authentication", async () => {
    const org: Organisation = await createOrganisation(t(), { isSSOEnabled: true });
    const user = await createUser(t(), org, { email: email(), isSSO: true });
    const other = await createUser(t(), org, { email: email(), isSSO: true });
    const { session } = await t().app.get(SessionsService).start(user, client);
    const caller = { id: user.id, sessionId: session.id } as AuthUser;
    const marked = async () =>
      (await t().db.getRepository(Session).findOneByOrFail({ id: session.id })).authenticatedAt;
    const before = await marked();

    const stranger = await stepUpAs(caller, other.email);
    expect(stranger.pathname).toBe('/users');
    expect(stranger.searchParams.get('stepUpError')).toBe(SSO_MESSAGES.STEP_UP_OTHER_ACCOUNT);

    provider().mint = (r) => provider().idToken(r, { auth_time: Math.floor(Date.now() / 1000) - 3600 });
    const stale = await stepUpAs(caller, user.email);
    expect(stale.searchParams.get('stepUpError')).toBe(SSO_MESSAGES.FAILED);
    expect(await marked()).toEqual(before);

    provider().mint = (r) => provider().idToken(r);
    const fresh = await stepUpAs(caller, user.email);
    expect(`${fresh.pathname}${fresh.search}`).toBe('/users?page=2&stepUp=done');
    expect(await marked()).not.toEqual(before);
    expect(await t().db.getRepository(Session).countBy({ userId: user.id })).toBe(1);
  });
});
