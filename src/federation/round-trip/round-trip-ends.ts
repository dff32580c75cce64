import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Response } from 'express';
import { Repository } from 'typeorm';
import { SsoStepUp, StepUpService } from '../../step-up/step-up.service';
import { AppException } from '../../common/app.exception';
import { setRefreshCookie } from '../../common/http/refresh-cookie';
import { RequestContext } from '../../common/request-context';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';
import { ERROR_CODES } from '../../shared/messages';
import { safeReturnPath } from '../../shared/return-path';
import { SSO_MESSAGES, SsoProtocol } from '../../shared/sso';
import { SsoConnection } from '../entities/sso-connection.entity';
import { FederatedIdentity, FederatedSignInService } from '../sign-in/federated-sign-in.service';
import { SsoConnectionTestService, SsoTestEnd, SsoTestTicket } from '../connection-test/sso-connection-test.service';

/** Sends the browser back to the sign-in page with the reason a corporate sign-in failed. */
export function backToLogin(res: Response, e: unknown): void {
  const message = e instanceof AppException ? (e.getResponse() as { message: string }).message : SSO_MESSAGES.FAILED;
  res.redirect(302, `/logIn?ssoError=${encodeURIComponent(message)}`);
}

/**
 * What a round trip to an identity provider ends in: a sign-in (`/` signed in), a step-up of the session that asked
 * (back where the person was), or an administrator's test (the Single Sign-On page with what the provider sent).
 */
@Injectable()
export class RoundTripEnds {
  constructor(
    @InjectRepository(SsoConnection) private readonly connections: Repository<SsoConnection>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly federated: FederatedSignInService,
    private readonly stepUps: StepUpService,
    private readonly tests: SsoConnectionTestService,
  ) {}

  /** The step-up and test tickets a start carries (at most one of them), or the refusal when one is not valid. */
  readTickets(
    id: number,
    stepUpTicket: string | undefined,
    testTicket: string | undefined,
  ): { stepUp?: SsoStepUp; test?: SsoTestTicket } {
    const stepUp = stepUpTicket === undefined ? undefined : this.stepUps.readSsoTicket(stepUpTicket);
    if (stepUpTicket !== undefined && (!stepUp || testTicket !== undefined))
      throw AppException.badRequest(SSO_MESSAGES.STEP_UP_EXPIRED, ERROR_CODES.SSO_FAILED);
    const test = testTicket === undefined ? undefined : this.tests.readTicket(testTicket, id);
    return { ...(stepUp ? { stepUp } : {}), ...(test ? { test } : {}) };
  }

  /** The session is open: its refresh cookie, then `/`, where the client refreshes with it and is signed in. */
  signedIn(res: Response, refreshToken: string): void {
    setRefreshCookie(res, refreshToken, this.config.publicUrl.startsWith('https:'));
    res.redirect(302, '/');
  }

  /** A connection's sign-in of the person the provider asserted. */
  async signIn(c: SsoConnection, identity: FederatedIdentity, client: RequestContext, res: Response): Promise<void> {
    const { refreshToken } = await this.federated.signIn(c, identity, client);
    this.signedIn(res, refreshToken);
  }

  /** The end of a test round trip: back on the Single Sign-On page with its result, whatever the provider said. */
  async tested(
    id: number,
    protocol: SsoProtocol,
    ticket: SsoTestTicket,
    client: RequestContext,
    res: Response,
    prove: (c: SsoConnection) => Promise<FederatedIdentity & { claims: Record<string, unknown> }>,
  ): Promise<void> {
    try {
      // A connection of this protocol, enabled or not: an administrator tests one before enabling it.
      const c = await this.connections.findOneBy({ id, protocol });
      if (!c) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
      let end: SsoTestEnd;
      try {
        end = { identity: await prove(c) };
      } catch (e) {
        end = { error: e };
      }
      res.redirect(302, await this.tests.record(c, ticket, end, client));
    } catch (e) {
      backToLogin(res, e);
    }
  }

  /** The account linked to this subject of the connection must be the one whose session asked to step up. */
  async markStepUp(c: SsoConnection, subject: string, stepUp: SsoStepUp, client: RequestContext): Promise<void> {
    const user = await this.federated.linkedAccount(c, subject);
    if (!user || user.id !== stepUp.sub)
      throw AppException.forbidden(SSO_MESSAGES.STEP_UP_OTHER_ACCOUNT, ERROR_CODES.SSO_NOT_ALLOWED);
    await this.stepUps.mark(stepUp.sid, user, client, c.name);
  }

  /** The end of a step-up at the provider: back where the person was, the session marked, or the reason shown. */
  async steppedUp(stepUp: SsoStepUp, res: Response, prove: () => Promise<void>): Promise<void> {
    // Judged again here, resolved: whatever the path went through, the browser stays on this site.
    const back = new URL(safeReturnPath(stepUp.returnTo, this.config.publicUrl) ?? '/', this.config.publicUrl);
    try {
      await prove();
      back.searchParams.set('stepUp', 'done');
    } catch (e) {
      const message =
        e instanceof AppException ? (e.getResponse() as { message: string }).message : SSO_MESSAGES.FAILED;
      back.searchParams.set('stepUpError', message);
    }
    res.redirect(302, `${back.pathname}${back.search}${back.hash}`);
  }
}
