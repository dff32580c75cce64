import { Injectable } from '@nestjs/common';
import { AppException } from '../../platform/web/app.exception';
import { AuditService } from '../../platform/audit';
import { AuthUser } from '../../platform/web/auth-user';
import { RequestContext } from '../../platform/web/request-context';
import { SuccessResult } from '../../shared/api-types';
import { checkAccountAction } from '../../shared/identity/account-rules';
import { UsersService } from '../users';
import { MfaService } from './mfa.service';
import { removeAllPasskeys } from '../passkeys';

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
    // Passkeys: a passkey is MFA too, and a user who lost every authenticator needs this way back.
    if (!target.isMFAEnabled && !target.hasPasskey) throw AppException.badRequest('MFA is not enabled for this user.');
    await this.mfa.clear(target.id, async (tx) => {
      const passkeysRemoved = await removeAllPasskeys(tx, target.id);
      await this.audit.record(tx, {
        type: 'MFA_DISABLED_BY_ADMIN',
        actor: caller,
        target,
        client,
        summary: `MFA of ${target.email} disabled` + (passkeysRemoved ? `, ${passkeysRemoved} passkey(s) removed` : ''),
        changes: { mfaEnabled: { from: true, to: false } },
      });
    });
    return { success: true };
  }
}
