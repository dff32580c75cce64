import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, In } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { Session, SessionsService } from '../../sessions';
import { ClientInfo } from '../../../platform/web/request-context';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { User } from '../../../platform/database/entities/user.entity';
import { SsoConnection } from '../entities/sso-connection.entity';
import { SsoSession } from '../entities/sso-session.entity';
import { OidcConnector } from '../connectors/oidc-connector';
import { OneTimeValues } from '../round-trip/one-time-values';

/**
 * Single logout (docs/product-rules.md §6), the provider's side: a valid OIDC back-channel logout token ends the sessions it names
 * at once, on every instance.
 */
@Injectable()
export class BackChannelLogoutService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly oidc: OidcConnector,
    private readonly once: OneTimeValues,
    private readonly sessionsService: SessionsService,
    private readonly audit: AuditService,
  ) {}

  async backChannelLogout(connectionId: number, logoutToken: string | undefined, client: ClientInfo) {
    const invalid = () => AppException.badRequest(SSO_MESSAGES.LOGOUT_TOKEN_INVALID);
    const c = await this.db.getRepository(SsoConnection).findOneBy({ id: connectionId });
    if (!c || c.protocol !== 'oidc') throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    if (typeof logoutToken !== 'string' || logoutToken.length === 0 || logoutToken.length > 8000) throw invalid();
    const claims = await this.oidc.verifyLogoutToken(c, logoutToken);
    if (!claims) throw invalid();
    // A token is good once (its jti), on whichever instance it arrives first.
    if (!(await this.once.claim(`logout-token:${c.id}:${claims.jti}`, new Date((claims.exp + 60) * 1000))))
      throw invalid();
    const named = await this.db.getRepository(SsoSession).findBy({
      connectionId: c.id,
      ...(claims.sub ? { subject: claims.sub } : {}),
      ...(claims.sid ? { providerSessionId: claims.sid } : {}),
    });
    const ended = new Set<number>();
    for (const s of named) {
      const session = await this.db.getRepository(Session).findOneBy({ id: s.sessionId });
      if (!session || session.endedAt) continue;
      await this.sessionsService.end(session.id, 'sso-logout', client);
      ended.add(session.userId);
    }
    if (ended.size > 0) {
      const users = await this.db.getRepository(User).findBy({ id: In([...ended]) });
      await this.audit.manager.transaction(async (tx) => {
        for (const user of users)
          await this.audit.record(tx, {
            type: 'SSO_LOGOUT',
            actor: 'anonymous',
            target: user,
            client,
            summary: `Signed out by '${c.name}' (back-channel logout)`,
          });
      });
    }
    return { success: true as const };
  }
}
