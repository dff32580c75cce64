import { Injectable } from '@nestjs/common';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { OIDC_SESSION_COOKIE } from '../../platform/web/http/refresh-cookie';
import { RefreshTokenService } from '../credentials/refresh-token.service';
import { SessionAuthService } from '../credentials/session-auth.service';
import { TokenService } from '../credentials/token.service';
import { ERROR_CODES } from '../../shared/messages';

/** The browser's portal session as the provider's sign-in sees it. */
export type PortalSession =
  | { state: 'none' }
  /** A live session whose organisation's rules refuse this call (its address ranges): an application is refused too. */
  | { state: 'refused'; reason: string }
  | { state: 'live'; sessionId: string; user: AuthUser };

/**
 * Reads the browser's portal session for the OpenID provider: the current refresh token (its /oidc/ copy, never
 * used), then the very check every signed-in call passes (SessionAuthService.authenticate: the session open, the
 * account allowed in, the organisation's session lifetimes and address ranges), so an application is let in exactly
 * when a portal page would be.
 */
@Injectable()
export class PortalSessionReader {
  constructor(
    private readonly refreshTokens: RefreshTokenService,
    private readonly sessionAuth: SessionAuthService,
    private readonly tokens: TokenService,
  ) {}

  /** `cookies`: the request's cookies as cookie-parser read them. */
  async read(cookies: Record<string, string> | undefined, ip: string | undefined): Promise<PortalSession> {
    const raw = cookies?.[OIDC_SESSION_COOKIE];
    const session = await this.refreshTokens.sessionOf(raw);
    if (!session) return { state: 'none' };
    try {
      const signedIn = await this.sessionAuth.authenticate(
        this.tokens.signAccess(session.userId, session.sessionId),
        { ip: ip ?? null },
        { keep: false },
      );
      return { state: 'live', sessionId: session.sessionId, user: signedIn.user };
    } catch (e) {
      if (e instanceof AppException && e.code === ERROR_CODES.IP_NOT_ALLOWED)
        return { state: 'refused', reason: e.message };
      if (e instanceof AppException) return { state: 'none' };
      throw e;
    }
  }
}
