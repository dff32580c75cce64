import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation } from '../../platform/web/auth-user';
import { ClientInfo } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { SuccessMessage } from '../../shared/api-answers';
import { MyPrivacy, PRIVACY_LIMITS, PRIVACY_MESSAGES, SelfDeletionRefusal } from '../../shared/administration/privacy';
import { Role } from '../../shared/roles';
import { AccountLifecycleService } from '../../identity/users';

/** Erasure's two doors (docs/privacy.md); the rules and the work are the account lifecycle's `erase`. */
@Injectable()
export class PrivacyService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly lifecycle: AccountLifecycleService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether the caller may delete their own account now, and how long their organisation keeps what. */
  async mine(caller: AuthUser): Promise<MyPrivacy> {
    const me = await this.db.getRepository(User).findOneBy({ id: caller.id });
    const org = me ? await this.db.getRepository(Organisation).findOneBy({ id: me.organisationId }) : null;
    if (!me || !org) throw AppException.notFound(PRIVACY_MESSAGES.NOT_FOUND);
    let refusal: SelfDeletionRefusal | null = null;
    if (me.roleId === Role.E_SUPPORT) refusal = 'E_SUPPORT';
    else if (!org.selfDeletion) refusal = 'SELF_DELETION_OFF';
    else if (me.managedBy) refusal = 'DIRECTORY_MANAGED';
    else if (me.roleId === Role.SITE_ADMIN) {
      const others = await this.db
        .getRepository(User)
        .createQueryBuilder('u')
        .where('u.organisationId = :org AND u.roleId = :role AND u.id <> :id', {
          org: org.id,
          role: Role.SITE_ADMIN,
          id: me.id,
        })
        .andWhere('u.isDisabled = :no AND u.isBlocked = :no', { no: false })
        .getCount();
      if (others === 0) refusal = 'LAST_SITE_ADMIN';
    }
    return {
      canDeleteAccount: refusal === null,
      refusal,
      auditRetentionDays: org.auditRetentionDays ?? this.config.auditRetentionDays,
      signInHistoryDays: PRIVACY_LIMITS.SIGN_IN_HISTORY_DAYS,
    };
  }

  async deleteOwn(caller: AuthUser, client: ClientInfo): Promise<SuccessMessage> {
    const me = await this.db.getRepository(User).findOneBy({ id: caller.id });
    if (!me) throw AppException.notFound(PRIVACY_MESSAGES.NOT_FOUND);
    await this.lifecycle.erase({ type: 'user', caller }, me, true, client);
    return { success: true, message: PRIVACY_MESSAGES.DELETED };
  }

  /** A site admin erases its own organisation's members (another's is a 404), E-Support any organisation's. */
  async erase(caller: AuthUser, id: number, client: ClientInfo): Promise<SuccessMessage> {
    const target = await this.db.getRepository(User).findOneBy({ id });
    if (!target || target.erasedAt || !canAccessOrganisation(caller, target.organisationId))
      throw AppException.notFound(PRIVACY_MESSAGES.NOT_FOUND);
    await this.lifecycle.erase({ type: 'user', caller }, target, false, client);
    return { success: true, message: PRIVACY_MESSAGES.ERASED };
  }
}
