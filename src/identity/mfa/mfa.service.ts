import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import * as QRCode from 'qrcode';
import { EntityManager, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { AppException } from '../../platform/web/app.exception';
import { decrypt, encrypt, randomDigits } from '../../platform/crypto/secrets';
import { MailService } from '../../platform/mail/mail.service';
import { SessionsService } from '../sessions';
import { User } from '../../platform/database/entities/user.entity';
import { LIFETIMES } from '../../shared/limits';
import { MfaEnableResponse } from '../../shared/api-types';
import { AUTH_MESSAGES, ERROR_CODES, PRODUCT_NAME } from '../../shared/messages';
import { maySignIn } from '../credentials/may-sign-in';
import { isMfaCode } from '../../shared/validation';
import { MfaVerifyResponse, RecoveryCodesResponse } from '../../shared/identity/mfa-recovery';
import { RecoveryCodesService } from './recovery-codes.service';
import { TrustedDevicesService } from '../trusted-devices';

/** Spec 000 §9: QR error correction level M, margin 16. */
export const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 16 } as const;

/** One step either side of now (30 s each way), as authenticator apps drift. */
const EPOCH_TOLERANCE_SECONDS = 30;

/** TOTP enrolment and checks, and codes sent by e-mail. Secrets are stored encrypted; every code works once. */
@Injectable()
export class MfaService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly recoveryCodes: RecoveryCodesService,
    private readonly trustedDevices: TrustedDevicesService,
  ) {}

  /** Checks a TOTP code against the user's secret and burns its time step. */
  async verifyTotp(user: User, code: string, sealedSecret = user.mfaSecret): Promise<boolean> {
    if (!sealedSecret || !isMfaCode(code)) return false;
    const secret = decrypt(sealedSecret, this.config.encryptionKey);
    const result = await verify({
      secret,
      token: code,
      epochTolerance: EPOCH_TOLERANCE_SECONDS,
      ...(user.mfaLastUsedStep != null ? { afterTimeStep: user.mfaLastUsedStep } : {}),
    });
    if (!result.valid || !('timeStep' in result)) return false;
    const step = result.timeStep;
    // Conditional update: of two requests with the same code, only one wins the step.
    const claimed = await this.users
      .createQueryBuilder()
      .update(User)
      .set({ mfaLastUsedStep: step })
      .where('id = :id AND (mfaLastUsedStep IS NULL OR mfaLastUsedStep < :step)', { id: user.id, step })
      .execute();
    if (!claimed.affected) return false;
    user.mfaLastUsedStep = step;
    return true;
  }

  private codeHash(userId: number, code: string): string {
    return createHmac('sha256', this.config.encryptionKey).update(`${userId}:${code}`).digest('hex');
  }

  /** Checks (and consumes) a code sent by e-mail. */
  async verifyEmailCode(user: User, code: string): Promise<boolean> {
    if (!user.emailMfaCodeHash || !user.emailMfaCodeExpiresAt || user.emailMfaCodeExpiresAt <= new Date()) return false;
    const expected = Buffer.from(user.emailMfaCodeHash, 'hex');
    const given = Buffer.from(this.codeHash(user.id, code), 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    const claimed = await this.users.update(
      { id: user.id, emailMfaCodeHash: user.emailMfaCodeHash },
      { emailMfaCodeHash: null, emailMfaCodeExpiresAt: null },
    );
    return !!claimed.affected;
  }

  /** A login's second factor: a TOTP code, or the code last sent by e-mail; which one it was, or null: neither. */
  async verifyLoginCode(user: User, code: string): Promise<'totp' | 'email' | null> {
    if (await this.verifyTotp(user, code)) return 'totp';
    return (await this.verifyEmailCode(user, code)) ? 'email' : null;
  }

  async sendEmailCode(userId: number, client?: RequestContext): Promise<{ success: true; message: string }> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user || !maySignIn(user))
      throw AppException.unauthorized('The sign-in challenge is not valid. Please log in again.');
    // Passkeys: a passkey-only account may also have its code e-mailed, as a TOTP one may.
    if (!user.isMFAEnabled && !user.hasPasskey) throw AppException.badRequest('MFA is not enabled on this account.');
    const code = randomDigits(6);
    await this.users.manager.transaction(async (tx) => {
      await tx.getRepository(User).update(
        { id: user.id },
        {
          emailMfaCodeHash: this.codeHash(user.id, code),
          emailMfaCodeExpiresAt: new Date(Date.now() + LIFETIMES.EMAIL_MFA_CODE_SECONDS * 1000),
        },
      );
      await this.audit.record(tx, {
        type: 'MFA_CODE_SENT',
        actor: user,
        target: user,
        client,
        summary: 'Sign-in code e-mailed',
      });
    });
    await this.mail.send({
      to: user.email,
      subject: `${PRODUCT_NAME}: your sign-in code`,
      text: `Your sign-in code is ${code}\n\nIt is valid for ${LIFETIMES.EMAIL_MFA_CODE_SECONDS / 60} minutes and can be used once.\nIf you did not try to sign in, change your password and tell your administrator.`,
    });
    return { success: true, message: AUTH_MESSAGES.MFA_CODE_SENT };
  }

  /** Starts (or restarts) enrolment: a new secret, kept pending until a code from it verifies. */
  async startEnrolment(userId: number): Promise<MfaEnableResponse> {
    const user = await this.users.findOneByOrFail({ id: userId });
    if (user.isMFAEnabled) throw AppException.conflict('MFA is already enabled on this account.');
    const base32 = generateSecret();
    await this.users.update({ id: user.id }, { mfaPendingSecret: encrypt(base32, this.config.encryptionKey) });
    const otpauth_url = generateURI({ issuer: PRODUCT_NAME, label: user.email, secret: base32 });
    const qrCode = await QRCode.toDataURL(otpauth_url, QR_OPTIONS);
    return { secret: { base32, otpauth_url }, qrCode };
  }

  /** Verifies the first code of an enrolment and switches MFA on; the user's sessions end; the recovery codes are shown once. */
  async completeEnrolment(userId: number, token: string, client?: RequestContext): Promise<MfaVerifyResponse> {
    const user = await this.users.findOneByOrFail({ id: userId });
    if (user.isMFAEnabled) throw AppException.conflict('MFA is already enabled on this account.');
    if (!user.mfaPendingSecret) throw AppException.badRequest('Start the MFA set-up first.');
    user.mfaLastUsedStep = null;
    await this.users.update({ id: user.id }, { mfaLastUsedStep: null });
    if (!(await this.verifyTotp(user, token, user.mfaPendingSecret))) {
      throw AppException.badRequest(
        'The code is not valid. Check the time on your device and enter the current code.',
        ERROR_CODES.INVALID_MFA_TOKEN,
      );
    }
    const pending = user.mfaPendingSecret;
    const recoveryCodes = await this.users.manager.transaction(async (tx) => {
      await tx
        .getRepository(User)
        .update({ id: user.id }, { mfaSecret: pending, mfaPendingSecret: null, isMFAEnabled: true });
      await this.sessions.endAllForUsers([user.id], 'mfa-changed', undefined, tx);
      await this.audit.record(tx, {
        type: 'MFA_ENABLED',
        actor: user,
        target: user,
        client,
        summary: 'MFA enabled',
        changes: { mfaEnabled: { from: false, to: true } },
      });
      // The recovery codes, in the same transaction as the switch.
      return this.recoveryCodes.issue(tx, user.id);
    });
    return { success: true, recoveryCodes };
  }

  /** The user, who has MFA on and proves it with a current TOTP (regenerating recovery codes, switching MFA off). */
  private async userProvingTotp(userId: number, token: string): Promise<User> {
    const user = await this.users.findOneByOrFail({ id: userId });
    if (!user.isMFAEnabled) throw AppException.badRequest('MFA is not enabled on this account.');
    if (!(await this.verifyTotp(user, token))) {
      throw AppException.badRequest(
        'The code is not valid. Enter the current code from your authenticator app.',
        ERROR_CODES.INVALID_MFA_TOKEN,
      );
    }
    return user;
  }

  /** "Regenerate recovery codes": proven with a current TOTP; the old codes and every trusted device stop working. */
  async regenerateRecoveryCodes(
    userId: number,
    token: string,
    client?: RequestContext,
  ): Promise<RecoveryCodesResponse> {
    const user = await this.userProvingTotp(userId, token);
    const codes = await this.users.manager.transaction(async (tx) => {
      const fresh = await this.recoveryCodes.issue(tx, user.id);
      await this.trustedDevices.revokeAllIn(tx, user.id);
      await this.audit.record(tx, {
        type: 'RECOVERY_CODES_REGENERATED',
        actor: user,
        target: user,
        client,
        summary: 'Recovery codes regenerated; trusted devices revoked',
      });
      return fresh;
    });
    return { codes };
  }

  /** The user switches off their own MFA, proving it with a current code; their sessions end. */
  async disableOwn(userId: number, token: string, client?: RequestContext): Promise<{ success: true }> {
    const user = await this.userProvingTotp(userId, token);
    await this.clear(user.id, (tx) =>
      this.audit.record(tx, {
        type: 'MFA_DISABLED',
        actor: user,
        target: user,
        client,
        summary: 'MFA disabled',
        changes: { mfaEnabled: { from: true, to: false } },
      }),
    );
    return { success: true };
  }

  /**
   * Removes a user's second factor and ends their sessions (also used by administrators); `record` writes
   * the audit event in the same transaction.
   */
  async clear(userId: number, record: (tx: EntityManager) => Promise<void>): Promise<void> {
    await this.users.manager.transaction(async (tx) => {
      await tx.getRepository(User).update(
        { id: userId },
        {
          isMFAEnabled: false,
          mfaSecret: null,
          mfaPendingSecret: null,
          mfaLastUsedStep: null,
          emailMfaCodeHash: null,
          emailMfaCodeExpiresAt: null,
        },
      );
      await this.sessions.endAllForUsers([userId], 'mfa-changed', undefined, tx);
      // Without MFA, recovery codes and trusted devices mean nothing.
      await this.recoveryCodes.removeAll(tx, userId);
      await this.trustedDevices.revokeAllIn(tx, userId);
      await record(tx);
    });
  }
}
