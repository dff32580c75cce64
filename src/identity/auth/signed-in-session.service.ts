import { Injectable } from '@nestjs/common';
import { Requires } from '../../platform/wiring';
import { ClientInfo } from '../../platform/web/request-context';
import { SessionsService } from '../sessions';
import { CallOrigin, SessionAuthService } from '../credentials/session-auth.service';
import { TokenService } from '../credentials/token.service';
import { LogoutRedirect } from './logout-redirect';

/** A session after its sign-in: a new access token for its refresh token (rotated), and the logout that ends it. */
@Injectable()
export class SignedInSessionService {
  /** Where an SSO session's logout continues. */
  @Requires(LogoutRedirect) private readonly logoutRedirect!: LogoutRedirect;

  constructor(
    private readonly sessionAuth: SessionAuthService,
    private readonly tokens: TokenService,
    private readonly sessions: SessionsService,
  ) {}

  async refresh(raw: string | undefined, origin: CallOrigin): Promise<{ accessToken: string; refreshToken?: string }> {
    // rotate() refuses (and ends) the session of an account disabled, blocked or gone.
    const { session, refreshToken } = await this.sessions.rotate(raw);
    // Then the organisation's policy, as on every call (its session lifetimes, its address ranges), and its single
    // sign-on requirement; the idle limit counts from the refresh before this one.
    if (session.sessionRules !== false)
      await this.sessionAuth.enforceOnRefresh(session.id, origin, session.previousRefreshAt);
    return { accessToken: this.tokens.signAccess(session.userId, session.id), refreshToken };
  }

  /** Ends the caller's session; answers where the browser goes next when the provider's session must end too. */
  async logout(sessionId: string, client?: ClientInfo): Promise<string | undefined> {
    // Read before the end: a session that is over already has nothing left to end at the provider.
    const active = await this.sessions.isActive(sessionId);
    const logoutUrl = active ? await this.logoutRedirect.logoutUrl(sessionId) : undefined;
    await this.sessions.end(sessionId, 'logout', client);
    return logoutUrl;
  }
}
