import { Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { AuthUser } from '../../platform/web/auth-user';
import { RequestContext } from '../../platform/web/request-context';
import { PasswordService } from '../credentials/password.service';
import { MfaService, RecoveryCodesService } from '../mfa';
import { PasskeysService } from '../passkeys';
import { ERROR_CODES, ErrorCode } from '../../shared/messages';
import { User } from '../../platform/database/entities/user.entity';
import { StepUpDto } from './dto/step-up.dto';

/** The proofs a signed-in person can give of being the account's owner: password, TOTP, recovery code, passkey. */
@Injectable()
export class IdentityProofs {
  constructor(
    private readonly passwords: PasswordService,
    private readonly mfa: MfaService,
    private readonly recoveryCodes: RecoveryCodesService,
    private readonly passkeys: PasskeysService,
  ) {}

  /** Null when the proof holds; otherwise why not, for the audit event and the error code. */
  async verify(user: User, dto: StepUpDto, client: RequestContext): Promise<{ why: string; code: ErrorCode } | null> {
    if (dto.password !== undefined)
      return (await this.passwords.verifyAccount(user, dto.password)) === 'right'
        ? null
        : { why: 'wrong password', code: ERROR_CODES.INVALID_CREDENTIALS };
    if (dto.mfaToken !== undefined)
      return user.isMFAEnabled && (await this.mfa.verifyTotp(user, dto.mfaToken))
        ? null
        : { why: 'wrong or used authenticator code', code: ERROR_CODES.INVALID_MFA_TOKEN };
    if (dto.recoveryCode !== undefined)
      return (await this.recoveryCodes.consume(user, dto.recoveryCode, client)) !== null
        ? null
        : { why: 'wrong or used recovery code', code: ERROR_CODES.INVALID_RECOVERY_CODE };
    const checked = await this.passkeys.verifyAssertion(dto.passkey as unknown as AuthenticationResponseJSON, user);
    return checked.ok ? null : { why: 'passkey not verified', code: ERROR_CODES.PASSKEY_INVALID };
  }

  /** POST /auth/step-up/passkey-options: a challenge for one of the caller's own passkeys. */
  passkeyOptions(caller: AuthUser) {
    return this.passkeys.authenticationOptions(caller.id);
  }
}
