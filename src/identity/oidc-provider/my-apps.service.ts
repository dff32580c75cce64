import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { RequestContext } from '../../platform/web/request-context';
import { User } from '../../platform/database/entities/user.entity';
import { MyOidcApp, OIDC_CLIENT_MESSAGES } from '../../shared/identity/oidc-clients';
import { OidcClient } from './entities/oidc-client.entity';
import { OidcConsent } from './entities/oidc-consent.entity';
import { revokeClientRecords } from './oidc-adapter';

/** A member's own applications: those that signed them in, and withdrawing one's access (its tokens stop at once). */
@Injectable()
export class MyAppsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
  ) {}

  async list(caller: AuthUser): Promise<MyOidcApp[]> {
    const consents = await this.db
      .getRepository(OidcConsent)
      .find({ where: { userId: caller.id }, order: { grantedAt: 'DESC' } });
    const clients = await this.db.getRepository(OidcClient).find();
    const byId = new Map(clients.map((c) => [c.clientId, c]));
    return consents.flatMap((c) => {
      const app = byId.get(c.clientId);
      if (!app) return [];
      return [
        {
          clientId: c.clientId,
          name: app.name,
          scopes: c.scopes.split(' ').filter(Boolean),
          grantedAt: new Date(c.grantedAt).toISOString(),
          lastUsedAt: c.lastUsedAt ? new Date(c.lastUsedAt).toISOString() : null,
        },
      ];
    });
  }

  async withdraw(caller: AuthUser, clientId: string, client: RequestContext): Promise<{ success: true }> {
    const consent = await this.db.getRepository(OidcConsent).findOneBy({ userId: caller.id, clientId });
    if (!consent) throw AppException.notFound(OIDC_CLIENT_MESSAGES.APP_NOT_FOUND);
    const app = await this.db.getRepository(OidcClient).findOneBy({ clientId });
    await this.db.transaction(async (tx) => {
      await tx.getRepository(OidcConsent).delete({ userId: caller.id, clientId });
      const me = await tx.getRepository(User).findOneBy({ id: caller.id });
      await this.audit.record(tx, {
        type: 'OIDC_CONSENT_WITHDRAWN',
        actor: caller,
        target: me,
        client,
        summary: `Access of application "${app?.name ?? clientId}" withdrawn`,
      });
    });
    await revokeClientRecords(this.db, clientId, String(caller.id));
    return { success: true };
  }
}
