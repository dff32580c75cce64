import { Inject, Injectable } from '@nestjs/common';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import {
  refusalMessage,
  RoundTripEnd,
  RoundTripPurpose,
  RoundTripPurposeHandler,
  SsoDiscoveryService,
} from '../federation';
import { ERROR_CODES } from '../../shared/messages';
import { safeReturnPath } from '../../shared/identity/return-path';
import { SSO_MESSAGES } from '../../shared/identity/sso';
import { SsoStepUp, StepUpService } from './step-up.service';

/**
 * A step-up of an account that signs in through a provider happens at that provider (docs/product-rules.md §7): its
 * organisation's connection, else the deployment-wide one. The round trip is federation's; this is its purpose
 * (`?stepUp=`, found by RoundTripPurposes): the provider must have authenticated the person just now, as the
 * account whose session the ticket names, and then that session is marked. No new session, no cookie.
 */
@Injectable()
@RoundTripPurposeHandler()
export class SsoStepUpRoundTrip implements RoundTripPurpose<SsoStepUp> {
  readonly name = 'stepUp';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly discovery: SsoDiscoveryService,
    private readonly stepUps: StepUpService,
  ) {}

  /** POST /auth/step-up/sso: where the browser goes to confirm at the caller's provider. */
  async start(caller: AuthUser, returnTo: string | undefined): Promise<{ url: string }> {
    const connectionId = await this.discovery.connectionOf(caller.id, caller.sessionId);
    if (connectionId === null && !this.config.oidc)
      throw AppException.badRequest('Corporate login is not configured.', ERROR_CODES.SSO_UNAVAILABLE);
    const ticket = encodeURIComponent(this.stepUps.ssoTicket(caller, returnTo));
    return {
      url:
        connectionId === null
          ? `/auth/sso?prompt=login&stepUp=${ticket}`
          : `/auth/sso/${connectionId}?prompt=login&stepUp=${ticket}`,
    };
  }

  readTicket(raw: string): SsoStepUp {
    const stepUp = this.stepUps.readSsoTicket(raw);
    if (!stepUp) throw AppException.badRequest(SSO_MESSAGES.STEP_UP_EXPIRED, ERROR_CODES.SSO_FAILED);
    return stepUp;
  }

  /** Back where the person was, the session marked, or with the reason it was not. */
  async end(stepUp: SsoStepUp, end: RoundTripEnd): Promise<void> {
    // Judged again here, resolved: whatever the path went through, the browser stays on this site.
    const back = new URL(safeReturnPath(stepUp.returnTo, this.config.publicUrl) ?? '/', this.config.publicUrl);
    try {
      const c = await end.connection();
      const identity = await end.identity(c, { fresh: true });
      const user = await end.account(c, identity);
      if (!user || user.id !== stepUp.sub)
        throw AppException.forbidden(SSO_MESSAGES.STEP_UP_OTHER_ACCOUNT, ERROR_CODES.SSO_NOT_ALLOWED);
      await this.stepUps.mark(stepUp.sid, user, end.client, end.providerName(c));
      back.searchParams.set('stepUp', 'done');
    } catch (e) {
      back.searchParams.set('stepUpError', refusalMessage(e));
    }
    end.res.redirect(302, `${back.pathname}${back.search}${back.hash}`);
  }
}
