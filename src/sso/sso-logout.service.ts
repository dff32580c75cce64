import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { AuthService } from '../auth/auth.service';
import { AppException } from '../common/app.exception';
import { decrypt } from '../common/crypto/secrets';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { Organisation } from '../organisations/entities/organisation.entity';
import { Session } from '../sessions/entities/session.entity';
import { ClientInfo, SessionsService } from '../sessions/sessions.service';
import { SSO_MESSAGES } from '../shared/sso';
import { User } from '../users/entities/user.entity';
import { SsoConnection } from './entities/sso-connection.entity';
import { SsoSession } from './entities/sso-session.entity';
import { OidcConnector } from './oidc-connector';
import { OneTimeValues } from './one-time-values';
import { SamlConnector } from './saml-connector';

/**
 * Single logout (CONTRACT 6). Log Out of an SSO session also ends the provider's: OIDC RP-initiated logout,
 * SAML single logout, else the organisation's SSO logout URL (spec 001 §2.12). And the provider may end our
 * sessions: a valid OIDC back-channel logout token ends those it names at once, on every instance.
 */
@Injectable()
export class SsoLogoutService implements OnModuleInit {
  constructor(
    @InjectRepository(SsoSession) private readonly ssoSessions: Repository<SsoSession>,
    @InjectRepository(SsoConnection) private readonly connections: Repository<SsoConnection>,
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly sessionsService: SessionsService,
    private readonly oidc: OidcConnector,
    private readonly saml: SamlConnector,
    private readonly once: OneTimeValues,
    private readonly audit: AuditService,
  ) {}

  onModuleInit(): void {
    this.auth.useLogoutRedirect((sessionId) => this.logoutUrl(sessionId));
  }

  /** Where the browser goes after our own logout of this session, or undefined when nothing more is to end. */
  async logoutUrl(sessionId: string): Promise<string | undefined> {
    const session = await this.sessions.findOneBy({ id: sessionId });
    if (!session || session.method !== 'sso') return undefined;
    const sso = await this.ssoSessions.findOneBy({ sessionId });
    const c = sso ? await this.connections.findOneBy({ id: sso.connectionId }) : null;
    let url: string | null = null;
    if (sso && c?.protocol === 'oidc')
      url = await this.oidc.endSessionUrl(c, sso.idToken ? decrypt(sso.idToken, this.config.encryptionKey) : null);
    else if (sso && c?.protocol === 'saml') url = await this.saml.logoutUrl(c, sso).catch(() => null);
    if (url) return url;
    const org = await this.organisations.findOneBy({ id: session.organisationId });
    return org?.ssoLogoutUrl ?? undefined;
  }

  async backChannelLogout(connectionId: number, logoutToken: string | undefined, client: ClientInfo) {
    const invalid = () => AppException.badRequest(SSO_MESSAGES.LOGOUT_TOKEN_INVALID);
    const c = await this.connections.findOneBy({ id: connectionId });
    if (!c || c.protocol !== 'oidc') throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    if (typeof logoutToken !== 'string' || logoutToken.length === 0 || logoutToken.length > 8000) throw invalid();
    const claims = await this.oidc.verifyLogoutToken(c, logoutToken);
    if (!claims) throw invalid();
    // A token is good once (its jti), on whichever instance it arrives first.
    if (!(await this.once.claim(`logout-token:${c.id}:${claims.jti}`, new Date((claims.exp + 60) * 1000))))
      throw invalid();
    const named = await this.ssoSessions.findBy({
      connectionId: c.id,
      ...(claims.sub ? { subject: claims.sub } : {}),
      ...(claims.sid ? { providerSessionId: claims.sid } : {}),
    });
    const ended = new Set<number>();
    for (const s of named) {
      const session = await this.sessions.findOneBy({ id: s.sessionId });
      if (!session || session.endedAt) continue;
      await this.sessionsService.end(session.id, 'sso-logout', client);
      ended.add(session.userId);
    }
    if (ended.size > 0) {
      const users = await this.users.findBy({ id: In([...ended]) });
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
