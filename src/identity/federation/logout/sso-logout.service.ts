import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { LogoutRedirect } from '../../auth';
import { Implements } from '../../../platform/wiring';
import { decrypt } from '../../../platform/crypto/secrets';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { Session } from '../../sessions';
import { SsoConnection } from '../entities/sso-connection.entity';
import { SsoSession } from '../entities/sso-session.entity';
import { OidcConnector } from '../connectors/oidc-connector';
import { SamlConnector } from '../connectors/saml-connector';

/**
 * Single logout (docs/product-rules.md §6), our side first: Log Out of an SSO session also ends the provider's: OIDC RP-initiated
 * logout, SAML single logout, else the organisation's SSO logout URL (spec 001 §2.12). The provider's side is
 * BackChannelLogoutService.
 */
@Injectable()
@Implements(LogoutRedirect)
export class SsoLogoutService implements LogoutRedirect {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcConnector,
    private readonly saml: SamlConnector,
  ) {}

  /** Where the browser goes after our own logout of this session, or undefined when nothing more is to end. */
  async logoutUrl(sessionId: string): Promise<string | undefined> {
    const session = await this.db.getRepository(Session).findOneBy({ id: sessionId });
    if (!session || session.method !== 'sso') return undefined;
    const sso = await this.db.getRepository(SsoSession).findOneBy({ sessionId });
    const c = sso ? await this.db.getRepository(SsoConnection).findOneBy({ id: sso.connectionId }) : null;
    let url: string | null = null;
    if (sso && c?.protocol === 'oidc')
      url = await this.oidc.endSessionUrl(c, sso.idToken ? decrypt(sso.idToken, this.config.encryptionKey) : null);
    else if (sso && c?.protocol === 'saml') url = await this.saml.logoutUrl(c, sso).catch(() => null);
    if (url) return url;
    const org = await this.db.getRepository(Organisation).findOneBy({ id: session.organisationId });
    return org?.ssoLogoutUrl ?? undefined;
  }
}
