import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { AppException } from '../../platform/web/app.exception';
import { SUPPORT_ACCESS_TOKEN_HEADER } from '../../platform/web/support-session-call';
import { LIFETIMES } from '../../shared/limits';
import { AUTH_MESSAGES, ERROR_CODES } from '../../shared/messages';
import type { SupportActor } from '../../shared/portal/support-access';

export type ChallengePurpose = 'mfa' | 'change-password';

export interface AccessPayload {
  sub: number;
  sid: string;
  typ: 'access';
}

interface ChallengePayload {
  sub: number;
  typ: 'challenge';
  pur: ChallengePurpose;
}

/** The one expired-token answer of the specification: 403 {success: false, message: 'jwt expired'}. */
export function jwtExpired(): AppException {
  return AppException.forbidden(AUTH_MESSAGES.JWT_EXPIRED, ERROR_CODES.JWT_EXPIRED);
}

/** Access tokens whose signature has been checked, kept until they expire (the oldest go first beyond this). */
export const VERIFIED_TOKENS_MAX = 10_000;

/** Signs and checks access tokens (15 minutes, carry the session id) and the short challenge tokens of login steps. */
@Injectable()
export class TokenService {
  /**
   * A signed token never changes: its signature is checked once, and its payload kept until its expiry, which
   * every use compares with the clock as the first check did (the signed-in path checked the same
   * token's HMAC on every call). Whether its session is still open is asked on every call, as before.
   */
  private readonly verified = new Map<string, Readonly<AccessPayload & { exp: number }>>();

  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  signAccess(userId: number, sessionId: string): string {
    const payload: AccessPayload = { sub: userId, sid: sessionId, typ: 'access' };
    return this.jwt.sign(payload, { expiresIn: LIFETIMES.ACCESS_TOKEN_SECONDS });
  }

  /**
   * The access token of a support-access session (docs/support-access.md): the member's, with `act` naming the
   * E-Support account (RFC 8693), valid until the session's end and never refreshed. The claim informs the client;
   * the server reads who acts from the session's row.
   */
  signSupportAccess(userId: number, sessionId: string, act: SupportActor, endsAt: Date): string {
    const payload: AccessPayload & { act: SupportActor } = { sub: userId, sid: sessionId, typ: 'access', act };
    const seconds = Math.max(1, Math.floor((endsAt.getTime() - Date.now()) / 1000));
    return this.jwt.sign(payload, { expiresIn: seconds, header: SUPPORT_ACCESS_TOKEN_HEADER });
  }

  signChallenge(userId: number, purpose: ChallengePurpose): string {
    const payload: ChallengePayload = { sub: userId, typ: 'challenge', pur: purpose };
    return this.jwt.sign(payload, { expiresIn: LIFETIMES.CHALLENGE_TOKEN_SECONDS });
  }

  /** The user id a challenge token (from `Authorization: Bearer …`) was issued to, for the given step. */
  verifyChallenge(authorization: string | undefined, purpose: ChallengePurpose): number {
    const token = bearer(authorization);
    if (!token) throw AppException.unauthorized('This step needs the challenge token of the previous sign-in step.');
    let payload: ChallengePayload;
    try {
      payload = this.jwt.verify<ChallengePayload>(token);
    } catch (e) {
      if ((e as Error).name === 'TokenExpiredError') throw jwtExpired();
      throw AppException.unauthorized('The sign-in challenge is not valid. Please log in again.');
    }
    if (payload.typ !== 'challenge' || payload.pur !== purpose) {
      throw AppException.unauthorized('The sign-in challenge is not valid for this step. Please log in again.');
    }
    return payload.sub;
  }

  /**
   * The payload of a valid access token (from `Authorization: Bearer …` or the socket's handshake); an expired
   * one is the spec's 403 'jwt expired', anything else 401.
   */
  verifyAccessToken(token: string | undefined, keep = true): Readonly<AccessPayload & { exp: number }> {
    if (!token) throw AppException.unauthorized();
    const known = this.verified.get(token);
    if (known) {
      // jsonwebtoken's own rule: expired once the clock's second reaches `exp`.
      if (Math.floor(Date.now() / 1000) < known.exp) return known;
      this.verified.delete(token);
      throw jwtExpired();
    }
    let payload: AccessPayload & { exp: number };
    try {
      payload = this.jwt.verify<AccessPayload & { exp: number }>(token);
    } catch (e) {
      if ((e as Error).name === 'TokenExpiredError') throw jwtExpired();
      throw AppException.unauthorized();
    }
    if (
      payload.typ !== 'access' ||
      typeof payload.sid !== 'string' ||
      typeof payload.sub !== 'number' ||
      typeof payload.exp !== 'number'
    )
      throw AppException.unauthorized();
    // `keep` false: a one-off check (a socket's handshake) leaves the cache to the calls that repeat.
    if (!keep) return Object.freeze(payload);
    if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, Object.freeze(payload));
    return payload;
  }

  get cookieSecure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }
}

export function bearer(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}
