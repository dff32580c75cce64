import { Inject, Injectable } from '@nestjs/common';
import { Request, Response } from 'express';
import { AppException } from '../../../platform/web/app.exception';
import { RequestContext, requestContextOf } from '../../../platform/web/request-context';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { ERROR_CODES } from '../../../shared/messages';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { DEPLOYMENT_WIDE, OidcConnector } from '../connectors/oidc-connector';
import { SamlConnector } from '../connectors/saml-connector';
import { SignInEnd } from '../sign-in/sign-in-end';
import { backToLogin, RoundTripEnd, RoundTripPurposes } from './round-trip-purpose';
import { Carried, RoundTripState, SamlPurpose } from './round-trip-state';
import { oidcRedirectUri } from './sso-urls';
import { RoundTripEnds } from './round-trip-ends';
import { providerReturnPath } from '../../../shared/identity/return-path';

const SAML_CLOCK_SKEW_MS = 60_000;

/** The tickets a start's query may carry, by the name of the purpose they start (RoundTripPurpose.name). */
export type StartTickets = Record<string, string | undefined>;

/**
 * The browser's side of a corporate sign-in, protocol by protocol: where it goes (start), and what comes back (the
 * OIDC callback, the SAML assertion consumer), handed to the handler of the round trip's purpose: a sign-in
 * (SignInEnd), or a purpose a feature marked @RoundTripPurposeHandler() (a step-up, a connection test), found by
 * RoundTripPurposes. What crosses the round trip is RoundTripState's.
 */
@Injectable()
export class SsoFlowService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcConnector,
    private readonly saml: SamlConnector,
    private readonly state: RoundTripState,
    private readonly purposes: RoundTripPurposes,
    private readonly signIn: SignInEnd,
    private readonly ends: RoundTripEnds,
  ) {}

  /**
   * GET /auth/sso/{id}. `prompt=login`: a fresh authentication at the provider (OIDC prompt=login and max_age=0,
   * SAML ForceAuthn). A ticket of a registered purpose (`?stepUp=` of POST /auth/step-up/sso, `?test=` of POST
   * /api/sso-connections/{id}/test) makes the round trip that purpose's, with a fresh authentication too. A sign-in's
   * `returnTo` (the OpenID provider's sign-in that sent the person to the login card) is where it ends.
   */
  async start(
    id: number,
    res: Response,
    {
      loginHint,
      prompt,
      returnTo,
      tickets = {},
    }: { loginHint?: string; prompt?: string; returnTo?: string; tickets?: StartTickets } = {},
  ): Promise<void> {
    try {
      const carried = this.purposes.fromStart(tickets, id);
      const reauthenticate = prompt === 'login' || !!carried;
      const c = carried?.purpose.disabledConnections ? await this.ends.existing(id) : await this.ends.usable(id);
      const purpose = this.carried(carried, returnTo);
      if (c.protocol === 'saml') {
        const relayState = purpose ? await this.state.keepSaml(purpose) : '';
        res.redirect(302, await this.saml.start(c, loginHint, { forceAuthn: reauthenticate, relayState }));
        return;
      }
      const { url, transaction } = await this.oidc.start(c, loginHint, reauthenticate);
      this.state.keepOidc(res, { ...transaction, ...purpose });
      res.redirect(302, url);
    } catch (e) {
      backToLogin(res, e);
    }
  }

  /**
   * GET /auth/sso: the same through the deployment-wide provider (OIDC_*). Unlike a connection's start, its
   * configuration's absence (404) and an unreachable provider (502) answer the call itself.
   */
  async startDeploymentWide(
    res: Response,
    { prompt, returnTo, tickets = {} }: { prompt?: string; returnTo?: string; tickets?: StartTickets },
  ) {
    let carried: ReturnType<RoundTripPurposes['fromStart']>;
    try {
      carried = this.purposes.fromStart(tickets, null);
    } catch (e) {
      backToLogin(res, e);
      return;
    }
    const { url, transaction } = await this.oidc.start(DEPLOYMENT_WIDE, undefined, prompt === 'login' || !!carried);
    this.state.keepOidc(res, { ...transaction, ...this.carried(carried, returnTo) });
    res.redirect(302, url);
  }

  /**
   * What the round trip carries: a purpose and its ticket, or for a sign-in the OpenID provider's path it returns to
   * (any other returnTo is dropped: the sign-in then ends on the portal's home); undefined: nothing.
   */
  private carried(
    carried: ReturnType<RoundTripPurposes['fromStart']>,
    returnTo: string | undefined,
  ): Carried | undefined {
    if (carried) return { purpose: carried.purpose.name, ticket: carried.ticket };
    const path = providerReturnPath(returnTo, this.config.publicUrl);
    return path ? { returnTo: path } : undefined;
  }

  /** GET /callback: the end of an OIDC round trip, of a connection or of the deployment-wide provider. */
  async oidcCallback(req: Request, res: Response): Promise<void> {
    const transaction = await this.state.takeOidc(req, res);
    const client = requestContextOf(req);
    const currentUrl = new URL(req.originalUrl, oidcRedirectUri(this.config.publicUrl));
    const connectionId = transaction?.connectionId ?? null;
    const end = this.ends.end('oidc', connectionId, client, res, async (c, { fresh } = {}) => {
      if (!transaction)
        throw AppException.badRequest(
          'The corporate login took too long or was started elsewhere. Please try again.',
          ERROR_CODES.SSO_STATE_MISSING,
        );
      const identity = await this.oidc.finish(c ?? DEPLOYMENT_WIDE, currentUrl, transaction, fresh ? 0 : undefined);
      return { ...identity, providerSessionId: identity.sid ?? null };
    });
    await this.dispatch(transaction, end);
  }

  /** POST /auth/saml/{id}/acs: a SAML answer, for the purpose its RelayState names, else a sign-in. */
  async samlAcs(id: number, samlResponse: string, client: RequestContext, res: Response, relayState?: string) {
    const carried: SamlPurpose | undefined = relayState ? await this.state.takeSaml(relayState) : undefined;
    const end = this.ends.end('saml', id, client, res, async (c, { fresh } = {}) => {
      const identity = await this.saml.acs(c!, samlResponse);
      // ForceAuthn was asked: the IdP must have authenticated the person after the round trip began.
      if (
        fresh &&
        (!identity.authnInstant || identity.authnInstant.getTime() < (carried?.startedAt ?? 0) - SAML_CLOCK_SKEW_MS)
      )
        throw AppException.unauthorized(SSO_MESSAGES.STEP_UP_NOT_FRESH, ERROR_CODES.SSO_FAILED);
      return { ...identity, providerSessionId: identity.sessionIndex };
    });
    await this.dispatch(carried, end);
  }

  /**
   * The handler of the round trip's purpose: the registered one it names, with its ticket; else the sign-in, with
   * where it returns to.
   */
  private async dispatch(carried: Carried | undefined, end: RoundTripEnd) {
    const purpose = carried?.purpose === undefined ? undefined : this.purposes.named(carried.purpose);
    if (purpose) await purpose.end(carried?.ticket, end);
    else await this.signIn.end(carried?.purpose === undefined ? carried?.returnTo : undefined, end);
  }

  async samlMetadata(id: number): Promise<string> {
    return this.saml.metadata(await this.ends.existing(id, 'saml'));
  }
}
