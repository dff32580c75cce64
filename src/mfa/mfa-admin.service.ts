import { Injectable } from '@nestjs/common';
import { AppException } from '../common/app.exception';
import { AuthUser } from '../common/auth-user';
import { SuccessResult } from '../shared/api-types';
import { checkAccountAction } from '../users/role-rules';
import { UsersService } from '../users/users.service';
import { MfaService } from './mfa.service';

/** An administrator's MFA actions on another user. */
@Injectable()
export class MfaAdminService {
  constructor(
    private readonly users: UsersService,
    private readonly mfa: MfaService,
  ) {}

  /** Switches off the user's MFA and ends their sessions (they enrol again at the next sign-in if it is enforced). */
  async disableUserMfa(caller: AuthUser, userId: number): Promise<SuccessResult> {
    const target = await this.users.findAccessible(caller, userId);
    const refused = checkAccountAction(caller, target, 'mfa');
    if (refused) throw AppException.forbidden(refused);
    if (!target.isMFAEnabled) throw AppException.badRequest('MFA is not enabled for this user.');
    await this.mfa.clear(target.id);
    return { success: true };
  }
}
