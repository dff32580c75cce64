import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppException } from '../common/app.exception';
import { AuthUser, canAccessOrganisation } from '../common/auth-user';
import { ClientInfo } from '../common/request-context';
import { User } from '../database/entities/user.entity';
import { SuccessMessage } from '../shared/api-answers';
import { PRIVACY_MESSAGES } from '../shared/privacy';
import { AccountLifecycleService } from '../users';

/** Erasure's two doors (docs/privacy.md); the rules and the work are the account lifecycle's `erase`. */
@Injectable()
export class PrivacyService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly lifecycle: AccountLifecycleService,
  ) {}

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
