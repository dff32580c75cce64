import { Injectable } from '@nestjs/common';
import { AppException } from '../common/app.exception';
import { AuditService } from '../audit/audit.service';
import { AuthUser } from '../common/auth-user';
import { RequestContext } from '../common/request-context';
import { SuccessResult } from '../shared/api-types';
import { checkAccountAction } from '../shared/account-rules';
import { UsersService } from '../users/users.service';
import { MfaService } from './mfa.service';

/** An administrator's MFA actions on another user. */
@Injectable()
export class MfaAdminService {
  constructor(
    private readonly users: UsersService,
    private readonly mfa: MfaService,
    private readonly audit: AuditService,
  ) {}

  /** Switches off the user's MFA and ends their sessions (they enrol again at the next sign-in if it is enforced). */
  async disableUserMfa(caller: AuthUser, userId: number, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.users.findAccessible(caller, userId);
    const refused = checkAccountAction(caller, target, 'mfa');
    if (refused) throw AppException.forbidden(refused);
    if (!target.isMFAEnabled) throw AppException.badRequest('MFA is not enabled for this user.');
    await this.mfa.clear(target.id, (tx) =>
      this.audit.record(tx, {
        type: 'MFA_DISABLED_BY_ADMIN',
        actor: caller,
        target,
        client,
        summary: `MFA of ${target.email} disabled`,
        changes: { mfaEnabled: { from: true, to: false } },
      }),
    );
    return { success: true };
  }
}
