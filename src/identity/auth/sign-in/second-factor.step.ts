import { Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { AppException } from '../../../platform/web/app.exception';
import { SignInChallenge } from '../../../platform/web/decorators/current-user.decorator';
import { TokenService } from '../../credentials/token.service';
import { MfaService, RecoveryCodesService } from '../../mfa';
import { DeviceCookie, TrustedDevicesService } from '../../trusted-devices';
import { PasskeysService } from '../../passkeys';
import { RECOVERY_MESSAGES } from '../../../shared/identity/mfa-recovery';
import { AUTH_MESSAGES, ERROR_CODES } from '../../../shared/messages';
import type { SecondFactorUsed, SignInFailureReason } from '../../../shared/administration/insights';
import { User } from '../../../platform/database/entities/user.entity';
import { LoginDto } from '../dto/login.dto';
import { SignInAttempts, SignInClient } from './sign-in-attempts';

/** What the second-factor step brought besides passing. */
export interface SecondFactorPassed {
  /** After a sign-in with a recovery code, how many are left. */
  recoveryCodesLeft?: number;
  /** The person asked to trust this device. */
  rememberDevice: boolean;
  /** The second factor given (or the trusted device standing in for it); none: the account has none to give. */
  factor?: SecondFactorUsed;
}

/** A factor's answer: passed (with what it brought), or refused with the reason recorded and the error answered. */
type FactorAnswer =
  | { passed: true; factor: Exclude<SecondFactorUsed, 'device'>; recoveryCodesLeft?: number }
  | { passed: false; reason: SignInFailureReason; error: AppException };

/**
 * The MFA step of a password sign-in: an account with TOTP or a passkey must give one of them, a recovery code, or a
 * trusted device's cookie. Without any, it answers 401 TOTP_REQUIRED with the challenge token the next call carries.
 */
@Injectable()
export class SecondFactorStep {
  constructor(
    private readonly tokens: TokenService,
    private readonly attempts: SignInAttempts,
    private readonly mfa: MfaService,
    private readonly recoveryCodes: RecoveryCodesService,
    private readonly trustedDevices: TrustedDevicesService,
    private readonly passkeys: PasskeysService,
  ) {}

  async pass(
    user: User,
    dto: LoginDto,
    challenge: SignInChallenge,
    client: SignInClient,
    cookies?: Record<string, string>,
  ): Promise<SecondFactorPassed> {
    const secondFactorGiven = !!dto.mfaToken || !!dto.recoveryCode || !!dto.passkey;
    if (!user.isMFAEnabled && !user.hasPasskey) return { rememberDevice: false };
    // A valid device cookie of this account stands in for the step.
    if (!secondFactorGiven && (await this.trustedDevices.recognise(user, cookies)))
      return { rememberDevice: false, factor: 'device' };
    if (!secondFactorGiven) {
      throw AppException.unauthorized(AUTH_MESSAGES.TOTP_REQUIRED, ERROR_CODES.TOTP_REQUIRED, {
        challengeToken: this.tokens.signChallenge(user.id, 'mfa'),
        rememberDeviceDays: this.trustedDevices.rememberDays,
        // A passkey is a second factor as TOTP is; this tells the client to offer it.
        ...(user.hasPasskey ? { passkey: true } : {}),
      });
    }
    if (challenge.userId() !== user.id)
      throw AppException.unauthorized('The sign-in challenge belongs to another account. Please log in again.');
    const factor = await this.verify(user, dto, client);
    // The one place a wrong second factor is counted against the account and address, and audited with its reason.
    if (!factor.passed) {
      await this.attempts.failed(user.email, user, client, factor.reason);
      throw factor.error;
    }
    return {
      rememberDevice: dto.rememberDevice === true,
      recoveryCodesLeft: factor.recoveryCodesLeft,
      factor: factor.factor,
    };
  }

  /** The cookie of a device the person chose to trust after passing the step. */
  trustDevice(user: User, client: SignInClient): Promise<DeviceCookie | undefined> {
    return this.trustedDevices.issue(user, client);
  }

  /** The one factor given: a passkey, else a recovery code, else a TOTP or e-mailed code. Two at once is a 400. */
  private async verify(user: User, dto: LoginDto, client: SignInClient): Promise<FactorAnswer> {
    if (dto.passkey) {
      if (dto.mfaToken || dto.recoveryCode)
        throw AppException.badRequest('Send either an MFA code, a recovery code or a passkey, not two.');
      const checked = await this.passkeys.verifyAssertion(dto.passkey as unknown as AuthenticationResponseJSON, user);
      return checked.ok
        ? { passed: true, factor: 'passkey' }
        : { passed: false, reason: 'PASSKEY_NOT_VERIFIED', error: checked.error };
    }
    if (dto.recoveryCode) {
      if (dto.mfaToken) throw AppException.badRequest(RECOVERY_MESSAGES.BOTH_FACTORS);
      // Single use, and a wrong one counts as a failed attempt, like a TOTP.
      const left = await this.recoveryCodes.consume(user, dto.recoveryCode, client);
      if (left !== null) return { passed: true, factor: 'recovery', recoveryCodesLeft: left };
      return {
        passed: false,
        reason: 'WRONG_RECOVERY_CODE',
        error: AppException.unauthorized(RECOVERY_MESSAGES.INVALID_RECOVERY_CODE, ERROR_CODES.INVALID_RECOVERY_CODE),
      };
    }
    const code = await this.mfa.verifyLoginCode(user, dto.mfaToken!);
    if (code) return { passed: true, factor: code };
    return {
      passed: false,
      reason: 'WRONG_MFA_CODE',
      error: AppException.unauthorized(
        'The MFA token is invalid or has already been used.',
        ERROR_CODES.INVALID_MFA_TOKEN,
      ),
    };
  }
}
