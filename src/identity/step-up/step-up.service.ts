import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, IsNull } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, stepUpUntil } from '../../platform/web/auth-user';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import type { StepUpProof } from '../credentials/access-policy';
import { SESSION_ENDED_MESSAGE, SessionAuthService } from '../credentials/session-auth.service';
import { Session } from '../sessions';
import { ClientInfo } from '../../platform/web/request-context';
import { ERROR_CODES, SECURITY_MESSAGES } from '../../shared/messages';
import { safeReturnPath } from '../../shared/identity/return-path';
import type { StepUpResult } from '../../shared/api-types';
import { User } from '../../platform/database/entities/user.entity';
import { LoginThrottleService } from '../auth';
import { StepUpDto } from './dto/step-up.dto';
import { IdentityProofs } from './identity-proofs';

/** What a step-up through the identity provider carries across the round trip: the session to mark, and whose. */
export interface SsoStepUp {
  sid: string;
  sub: number;
  /** Where the browser returns afterwards: a path of this origin. */
  returnTo: string;
}

const SSO_TICKET_SECONDS = 120;

/**
 * Re-authentication before sensitive actions (docs/product-rules.md §7): the password, a TOTP, a recovery code or a passkey of the
 * caller's own account marks the caller's session as recently authenticated. Throttled like sign-in (the same counts
 * per account and address, so guesses here and at the login add up); each success and failure is audited.
 */
@Injectable()
export class StepUpService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly proofs: IdentityProofs,
    private readonly throttle: LoginThrottleService,
    private readonly audit: AuditService,
    private readonly jwt: JwtService,
    private readonly sessionAuth: SessionAuthService,
  ) {}

  async stepUp(caller: AuthUser, dto: StepUpDto, client: RequestContext): Promise<StepUpResult> {
    const given = [dto.password, dto.mfaToken, dto.recoveryCode, dto.passkey].filter(
      (v) => v !== undefined && v !== null,
    );
    if (given.length !== 1) throw AppException.badRequest(SECURITY_MESSAGES.STEP_UP_ONE_FACTOR);
    // The organisation's policy first, as at every door: a proof its single sign-on requirement replaces is refused
    // (403 SSO_REQUIRED) before it is weighed, and a session it ends is ended.
    await this.sessionAuth.enforceOnStepUp(caller.sessionId, client, proofOf(dto));
    const ip = client.ip ?? 'unknown';
    await this.throttle.check(caller.email, ip);
    const user = await this.db.getRepository(User).findOneBy({ id: caller.id });
    if (!user) throw AppException.unauthorized(SESSION_ENDED_MESSAGE, ERROR_CODES.SESSION_ENDED);

    const refusal = await this.proofs.verify(user, dto, client);
    if (refusal) {
      await this.throttle.recordFailure(caller.email, ip);
      await this.audit.record(this.audit.manager, {
        type: 'STEP_UP_FAILED',
        actor: caller,
        target: caller,
        client,
        summary: `Identity not confirmed: ${refusal.why}`,
      });
      throw AppException.unauthorized(SECURITY_MESSAGES.STEP_UP_FAILED, refusal.code);
    }
    const until = await this.mark(caller.sessionId, user, client, this.factorOf(dto));
    await this.throttle.recordSuccess(caller.email, ip);
    return { success: true, stepUpUntil: until.toISOString() };
  }

  private factorOf(dto: StepUpDto): string {
    if (dto.password !== undefined) return 'the password';
    if (dto.mfaToken !== undefined) return 'an authenticator code';
    if (dto.recoveryCode !== undefined) return 'a recovery code';
    return 'a passkey';
  }

  /** Marks the open session as authenticated now (`factor`: how, for the audit event); until when sensitive calls pass. */
  async mark(sessionId: string, user: User, client: ClientInfo | undefined, factor: string): Promise<Date> {
    const now = new Date();
    await this.db.transaction(async (tx) => {
      const marked = await tx
        .getRepository(Session)
        .update({ id: sessionId, userId: user.id, endedAt: IsNull() }, { authenticatedAt: now });
      if (!marked.affected) throw AppException.unauthorized(SESSION_ENDED_MESSAGE, ERROR_CODES.SESSION_ENDED);
      await this.audit.record(tx, {
        type: 'STEP_UP',
        actor: user,
        target: user,
        client,
        summary: `Identity confirmed with ${factor}`,
      });
    });
    return stepUpUntil({ authenticatedAt: now }, this.config.stepUpMinutes);
  }

  /** POST /auth/step-up/passkey-options: a challenge for one of the caller's own passkeys. */
  passkeyOptions(caller: AuthUser) {
    return this.proofs.passkeyOptions(caller);
  }

  /**
   * A short-lived ticket for a step-up at the caller's identity provider: the round trip it starts (through the
   * organisation's connection or the deployment-wide provider, step-up/sso-step-up.service.ts) marks this
   * session once the provider asserts this account after a fresh authentication.
   */
  ssoTicket(caller: AuthUser, returnTo: string | undefined): string {
    return this.jwt.sign(
      { typ: 'step-up', sid: caller.sessionId, sub: caller.id, ret: this.returnPath(returnTo) },
      { expiresIn: SSO_TICKET_SECONDS },
    );
  }

  /** A path of this site to come back to (src/shared/identity/return-path.ts), else the root. */
  private returnPath(value: unknown): string {
    return safeReturnPath(value, this.config.publicUrl) ?? '/';
  }

  /** The ticket of ssoTicket, or undefined when it is not a valid, unexpired one. */
  readSsoTicket(ticket: unknown): SsoStepUp | undefined {
    if (typeof ticket !== 'string' || ticket.length > 2000) return undefined;
    try {
      const p = this.jwt.verify<{ typ: string; sid: string; sub: number; ret: string }>(ticket);
      return p.typ === 'step-up' ? { sid: p.sid, sub: p.sub, returnTo: this.returnPath(p.ret) } : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The kind of proof a step-up offers, as the organisation's policy weighs it. */
function proofOf(dto: StepUpDto): StepUpProof {
  if (dto.password !== undefined) return 'password';
  if (dto.passkey !== undefined && dto.passkey !== null) return 'passkey';
  return 'second-factor';
}
