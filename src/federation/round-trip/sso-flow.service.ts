import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Request, Response } from 'express';
import { Repository } from 'typeorm';
import { SsoService } from '../connectors/deployment-oidc.service';
import { SsoStepUp } from '../../step-up/step-up.service';
import { AppException } from '../../common/app.exception';
import { RequestContext, requestContextOf } from '../../common/request-context';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';
import { ERROR_CODES } from '../../shared/messages';
import { SSO_MESSAGES, SsoProtocol } from '../../shared/sso';
import { SsoConnection } from '../entities/sso-connection.entity';
import { OidcConnector, OidcTransaction } from '../connectors/oidc-connector';
import { backToLogin, RoundTripEnds } from './round-trip-ends';
import { RoundTripState, Transaction } from './round-trip-state';
import { SamlConnector } from '../connectors/saml-connector';
import { ssoUrls } from './sso-urls';

const SAML_CLOCK_SKEW_MS = 60_000;

/**
 * The browser's side of a corporate sign-in, protocol by protocol: where it goes (start), and what comes back
 * (the OIDC callback, the SAML assertion consumer). What crosses the round trip is RoundTripState's; what it ends
 * in (signed in, stepped up, tested) is RoundTripEnds'.
 */
@Injectable()
export class SsoFlowService {
  constructor(
    @InjectRepository(SsoConnection) private readonly connections: Repository<SsoConnection>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deploymentWide: SsoService,
    private readonly oidc: OidcConnector,
    private readonly saml: SamlConnector,
    private readonly state: RoundTripState,
    private readonly ends: RoundTripEnds,
  ) {}

  /** An enabled connection of this protocol, or the refusal the sign-in page shows. */
  private async usable(id: number, protocol?: SsoProtocol): Promise<SsoConnection> {
    const c = await this.connections.findOneBy({ id });
    if (!c || (protocol && c.protocol !== protocol)) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    if (!c.enabled) throw AppException.forbidden(SSO_MESSAGES.DISABLED, ERROR_CODES.SSO_NOT_ALLOWED);
    return c;
  }

  /** A connection, enabled or not: an administrator tests one before enabling it. */
  private async existing(id: number): Promise<SsoConnection> {
    const c = await this.connections.findOneBy({ id });
    if (!c) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    return c;
  }

  /**
   * `prompt=login`: a fresh authentication at the provider (OIDC prompt=login and max_age=0, SAML ForceAuthn). With
   * the `stepUp` ticket of POST /auth/step-up/sso, the round trip re-authenticates the signed-in session the ticket
   * names (docs/product-rules.md §7): its end marks that session instead of opening one. With the `test` ticket of
   * POST /api/sso-connections/{id}/test, it is an administrator's test: its end shows what the provider sent.
   */
  async start(
    id: number,
    res: Response,
    {
      loginHint,
      prompt,
      stepUpTicket,
      testTicket,
    }: { loginHint?: string; prompt?: string; stepUpTicket?: string; testTicket?: string } = {},
  ): Promise<void> {
    try {
      const { stepUp, test } = this.ends.readTickets(id, stepUpTicket, testTicket);
      const reauthenticate = prompt === 'login' || !!stepUp || !!test;
      const c = test ? await this.existing(id) : await this.usable(id);
      if (c.protocol === 'saml') {
        const relayState = stepUp
          ? await this.state.keepSamlStepUp(stepUp)
          : test
            ? await this.state.keepSamlTest(test)
            : '';
        res.redirect(302, await this.saml.start(c, loginHint, { forceAuthn: reauthenticate, relayState }));
        return;
      }
      const { url, transaction } = await this.oidc.start(c, loginHint, reauthenticate);
      this.state.keepOidc(res, { ...transaction, ...(stepUp ? { stepUp } : {}), ...(test ? { test } : {}) });
      res.redirect(302, url);
    } catch (e) {
      backToLogin(res, e);
    }
  }

  /** GET /callback: the end of an OIDC round trip, of a connection or of the deployment-wide provider. */
  async oidcCallback(req: Request, res: Response): Promise<void> {
    const transaction = await this.state.takeOidc(req, res);
    const client = requestContextOf(req);
    const currentUrl = new URL(req.originalUrl, ssoUrls(this.config.publicUrl, 0).oidcRedirect);
    if (transaction?.stepUp) {
      await this.stepUpCallback(currentUrl, transaction, transaction.stepUp, client, res);
      return;
    }
    if (transaction?.test && transaction.connectionId !== undefined) {
      await this.ends.tested(transaction.connectionId, 'oidc', transaction.test, client, res, (c) =>
        this.oidc.finish(c, currentUrl, transaction as OidcTransaction),
      );
      return;
    }
    try {
      if (transaction?.connectionId === undefined) {
        const { refreshToken } = await this.deploymentWide.finish(currentUrl, transaction, client);
        this.ends.signedIn(res, refreshToken);
        return;
      }
      const c = await this.usable(transaction.connectionId, 'oidc');
      const identity = await this.oidc.finish(c, currentUrl, transaction as OidcTransaction);
      await this.ends.signIn(c, { ...identity, providerSessionId: identity.sid ?? null }, client, res);
    } catch (e) {
      backToLogin(res, e);
    }
  }

  /** The OIDC end of a step-up: the deployment-wide provider's, or a connection's. */
  private async stepUpCallback(
    currentUrl: URL,
    transaction: Transaction,
    stepUp: SsoStepUp,
    client: RequestContext,
    res: Response,
  ): Promise<void> {
    await this.ends.steppedUp(stepUp, res, async () => {
      if (transaction.connectionId === undefined) {
        await this.deploymentWide.finishStepUp(currentUrl, transaction, stepUp, client);
        return;
      }
      const c = await this.usable(transaction.connectionId, 'oidc');
      const identity = await this.oidc.finish(c, currentUrl, transaction as OidcTransaction, 0);
      await this.ends.markStepUp(c, identity.subject, stepUp, client);
    });
  }

  /** POST /auth/sso/{id}/acs: a SAML answer, for a step-up or a test when its RelayState names one, else a sign-in. */
  async samlAcs(id: number, samlResponse: string, client: RequestContext, res: Response, relayState?: string) {
    const stepUp = relayState ? await this.state.takeSamlStepUp(relayState) : undefined;
    if (stepUp) {
      await this.ends.steppedUp(stepUp, res, async () => {
        const c = await this.usable(id, 'saml');
        const identity = await this.saml.acs(c, samlResponse);
        // ForceAuthn was asked: the IdP must have authenticated the person after the step-up began.
        if (!identity.authnInstant || identity.authnInstant.getTime() < stepUp.startedAt - SAML_CLOCK_SKEW_MS)
          throw AppException.unauthorized(SSO_MESSAGES.STEP_UP_NOT_FRESH, ERROR_CODES.SSO_FAILED);
        await this.ends.markStepUp(c, identity.subject, stepUp, client);
      });
      return;
    }
    const test = relayState ? await this.state.takeSamlTest(relayState) : undefined;
    if (test) {
      await this.ends.tested(id, 'saml', test, client, res, async (c) => {
        const identity = await this.saml.acs(c, samlResponse);
        return { ...identity, providerSessionId: identity.sessionIndex };
      });
      return;
    }
    try {
      const c = await this.usable(id, 'saml');
      const identity = await this.saml.acs(c, samlResponse);
      await this.ends.signIn(c, { ...identity, providerSessionId: identity.sessionIndex }, client, res);
    } catch (e) {
      backToLogin(res, e);
    }
  }

  async samlMetadata(id: number): Promise<string> {
    const c = await this.connections.findOneBy({ id, protocol: 'saml' });
    if (!c) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    return this.saml.metadata(c);
  }
}
