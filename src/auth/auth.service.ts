import { HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { AppException } from '../common/app.exception';
import { randomToken, sha256 } from '../common/crypto/secrets';
import { MailService } from '../mail/mail.service';
import { MfaService } from '../mfa/mfa.service';
import { AssertionResult, PasskeysService } from '../passkeys/passkeys.service';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { RecoveryCodesService } from '../mfa/recovery-codes.service';
import { DeviceCookie, TrustedDevicesService } from '../mfa/trusted-devices.service';
import { RECOVERY_MESSAGES } from '../shared/mfa-recovery';
import { ClientInfo, SessionsService } from '../sessions/sessions.service';
import { User } from '../users/entities/user.entity';
import { Session } from '../sessions/entities/session.entity';
import { LIFETIMES } from '../shared/limits';
import { ACCOUNT_MESSAGES, AUTH_MESSAGES, ERROR_CODES, PRODUCT_NAME } from '../shared/messages';
import { PasswordResetToken } from './entities/password-reset-token.entity';
import { ChangePasswordDto, ForgotPasswordDto, ResetPasswordDto } from './dto/password.dto';
import { LoginDto } from './dto/login.dto';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordService } from '../credentials/password.service';
import { BreachedPasswordsService } from '../credentials/breached-passwords.service';
import { TokenService } from '../credentials/token.service';
import { maySignIn } from '../credentials/may-sign-in';

/** A stored forgot-password request, handled after the answer. */
export interface ForgotPasswordRequest {
  username: string;
  mfaCode?: string;
  /** Where the request came from, for the audit event of the link. */
  client?: ClientInfo;
}
export const FORGOT_PASSWORD_TASK = 'forgot-password';

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  /** After a sign-in with a recovery code, how many are left. */
  recoveryCodesLeft?: number;
  /** The cookie of a newly trusted device. */
  trustedDevice?: DeviceCookie;
}

/**
 * Sign-in as a state machine over one call (CONTRACT 3): credentials, then the second factor when the
 * account has MFA, then a forced password change when one is due; each step that needs more answers
 * 401 with a code and a short challenge token for the next.
 */
@Injectable()
export class AuthService implements OnModuleInit {
  private readonly logger = new Logger('Auth');
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(PasswordResetToken) private readonly resetTokens: Repository<PasswordResetToken>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly passwords: PasswordService,
    private readonly tokens: TokenService,
    private readonly throttle: LoginThrottleService,
    private readonly sessions: SessionsService,
    private readonly mfa: MfaService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    private readonly recoveryCodes: RecoveryCodesService,
    private readonly trustedDevices: TrustedDevicesService,
    private readonly passkeys: PasskeysService,
    private readonly breached: BreachedPasswordsService,
  ) {}

  onModuleInit(): void {
    this.mail.registerTask(FORGOT_PASSWORD_TASK, (request) =>
      this.forgotPasswordTask(request as ForgotPasswordRequest),
    );
  }

  /** Audit: a refused sign-in, by nobody known, against the account if it exists. */
  private recordSignInRefused(
    type: 'SIGN_IN_FAILED' | 'SIGN_IN_LOCKED',
    username: string,
    user: User | null,
    client: ClientInfo,
    why: string,
  ): Promise<void> {
    return this.audit.record(this.audit.manager, {
      type,
      actor: 'anonymous',
      target: user,
      organisationId: user?.organisationId ?? null,
      client,
      summary: `${why} for ${username.slice(0, 100)}`,
    });
  }

  async login(
    dto: LoginDto,
    authorization: string | undefined,
    client: ClientInfo & { ip: string },
    cookies?: Record<string, string>,
  ): Promise<SignedIn> {
    if (!dto.acceptToS) throw AppException.badRequest(AUTH_MESSAGES.TERMS_NOT_ACCEPTED, ERROR_CODES.TERMS_NOT_ACCEPTED);
    // Passkeys: a passkey alone is a password-less sign-in.
    if (dto.passkey && dto.username === undefined && dto.password === undefined)
      return this.loginWithPasskey(dto.passkey, client);
    const email = dto.username.toLowerCase();
    await this.checkThrottle(email, client);

    const user = await this.users.findOneBy({ email });
    // Always one argon2 verification (against a dummy hash without an account or a password), so the
    // answer takes as long for an unknown e-mail as for a wrong password.
    const passwordRight = await this.passwords.verify(user?.passwordHash, dto.password);
    if (!user || !passwordRight) {
      await this.recordFailure(email, client.ip, user);
      await this.recordSignInRefused('SIGN_IN_FAILED', email, user, client, 'Wrong e-mail or password');
      throw AppException.unauthorized(AUTH_MESSAGES.INVALID_CREDENTIALS, ERROR_CODES.INVALID_CREDENTIALS);
    }
    this.assertActive(user);

    // What the MFA step brought besides the session (codes left, a device to trust).
    let recoveryCodesLeft: number | undefined;
    let rememberDevice = false;
    // Trusted devices: a valid device cookie of this account stands in for the MFA step.
    // Passkeys: a passkey is a second factor as TOTP is; `passkey: true` tells the MFA step to offer it.
    const secondFactorGiven = !!dto.mfaToken || !!dto.recoveryCode || !!dto.passkey;
    if (
      (user.isMFAEnabled || user.hasPasskey) &&
      !(!secondFactorGiven && (await this.trustedDevices.recognise(user, cookies)))
    ) {
      if (!secondFactorGiven) {
        throw AppException.unauthorized(AUTH_MESSAGES.TOTP_REQUIRED, ERROR_CODES.TOTP_REQUIRED, {
          challengeToken: this.tokens.signChallenge(user.id, 'mfa'),
          rememberDeviceDays: this.trustedDevices.rememberDays,
          ...(user.hasPasskey ? { passkey: true } : {}),
        });
      }
      const challengedUser = this.tokens.verifyChallenge(authorization, 'mfa');
      if (challengedUser !== user.id)
        throw AppException.unauthorized('The sign-in challenge belongs to another account. Please log in again.');
      rememberDevice = dto.rememberDevice === true;
      if (dto.passkey) {
        if (dto.mfaToken || dto.recoveryCode)
          throw AppException.badRequest('Send either an MFA code, a recovery code or a passkey, not two.');
        const checked = await this.passkeys.verifyAssertion(dto.passkey as unknown as AuthenticationResponseJSON, user);
        if (!checked.ok) {
          await this.recordFailure(email, client.ip, user);
          await this.recordSignInRefused('SIGN_IN_FAILED', email, user, client, 'Passkey not verified');
          throw checked.error;
        }
      } else if (dto.recoveryCode) {
        // Recovery codes: single use, counted as a failed attempt when wrong, like a TOTP.
        if (dto.mfaToken) throw AppException.badRequest(RECOVERY_MESSAGES.BOTH_FACTORS);
        const left = await this.recoveryCodes.consume(user, dto.recoveryCode, client);
        if (left === null) {
          await this.recordFailure(email, client.ip, user);
          await this.recordSignInRefused('SIGN_IN_FAILED', email, user, client, 'Wrong or used recovery code');
          throw AppException.unauthorized(RECOVERY_MESSAGES.INVALID_RECOVERY_CODE, ERROR_CODES.INVALID_RECOVERY_CODE);
        }
        recoveryCodesLeft = left;
      } else if (!(await this.mfa.verifyLoginCode(user, dto.mfaToken!))) {
        await this.recordFailure(email, client.ip, user);
        await this.recordSignInRefused('SIGN_IN_FAILED', email, user, client, 'Wrong MFA code');
        throw AppException.unauthorized(
          'The MFA token is invalid or has already been used.',
          ERROR_CODES.INVALID_MFA_TOKEN,
        );
      }
    }

    const signedIn = await this.completeLogin(user, client, dto.passkey ? 'password+passkey' : 'password');
    // The extras of the MFA step.
    if (recoveryCodesLeft !== undefined) signedIn.recoveryCodesLeft = recoveryCodesLeft;
    if (rememberDevice) signedIn.trustedDevice = await this.trustedDevices.issue(user, client);
    return signedIn;
  }

  /** The last steps of every sign-in with credentials: a due password change, then the session. */
  private async completeLogin(user: User, client: ClientInfo & { ip: string }, method: string): Promise<SignedIn> {
    if (user.mustChangePassword) {
      throw AppException.unauthorized(AUTH_MESSAGES.PASSWORD_CHANGE_REQUIRED, ERROR_CODES.PASSWORD_CHANGE_REQUIRED, {
        challengeToken: this.tokens.signChallenge(user.id, 'change-password'),
      });
    }

    await this.throttle.recordSuccess(user.email, client.ip);
    return this.signIn(user, client, method);
  }

  /**
   * Passkeys: a password-less sign-in with a discoverable passkey (user verification required, so
   * it is both factors and no TOTP follows). The account's lock-out, access and password-change checks and the
   * session's concurrent-users limit are those of a password sign-in.
   */
  private async loginWithPasskey(response: object, client: ClientInfo & { ip: string }): Promise<SignedIn> {
    const checked: AssertionResult = await this.passkeys.verifyAssertion(response as AuthenticationResponseJSON, null);
    const known = checked.user;
    if (known) await this.checkThrottle(known.email, client);
    if (!checked.ok) {
      if (known) await this.recordFailure(known.email, client.ip, known);
      await this.recordSignInRefused(
        'SIGN_IN_FAILED',
        known?.email ?? 'an unknown passkey',
        known,
        client,
        'Passkey not verified',
      );
      throw checked.error;
    }
    this.assertActive(checked.user);
    return this.completeLogin(checked.user, client, 'passkey');
  }

  /** The sign-in throttle of an account and address; a refusal while locked is audited. */
  private async checkThrottle(email: string, client: ClientInfo & { ip: string }): Promise<void> {
    try {
      await this.throttle.check(email, client.ip);
    } catch (e) {
      // Audit
      if (e instanceof AppException && e.getStatus() === HttpStatus.TOO_MANY_REQUESTS) {
        await this.recordSignInRefused(
          'SIGN_IN_LOCKED',
          email,
          await this.users.findOneBy({ email }),
          client,
          'Sign-in refused while locked after repeated failures',
        );
      }
      throw e;
    }
  }

  /** Counts a failed attempt; when the account is under attack, tells its owner (once per window). */
  private async recordFailure(email: string, ip: string, user: User | null): Promise<void> {
    const { failures, alertOwner } = await this.throttle.recordFailure(email, ip);
    if (!alertOwner || !user) return;
    // Not awaited: the answer takes the same time whether or not an account was alerted.
    this.mail
      .send({
        to: user.email,
        subject: `${PRODUCT_NAME}: failed sign-in attempts on your account`,
        text:
          `There have been ${failures} failed attempts to sign in to your account in the last ${LoginThrottleService.WINDOW_MS / 60000} minutes.\n\n` +
          'Further attempts are slowed down; you can still sign in as usual, especially from where you have signed in before.\n' +
          'If this was not you, someone may be guessing your password: make sure it is strong and used nowhere else, and turn on ' +
          'multi-factor authentication on your profile page. If it was you, you need do nothing.',
      })
      .catch((e: Error) =>
        this.logger.error(`The sign-in alert for user ${user.id} could not be stored: ${e.message}`),
      );
  }

  /** Opens a session for an account whose identity is established (password steps or SSO). */
  async signIn(
    user: User,
    client: ClientInfo,
    method: string,
    within?: (tx: EntityManager, session: Session) => Promise<void>,
  ): Promise<SignedIn> {
    // One transaction: concurrent-users limit, session, refresh token, last login.
    const { session, refreshToken } = await this.sessions.start(user, client, method, within);
    return { accessToken: this.tokens.signAccess(user.id, session.id), refreshToken };
  }

  assertActive(user: User): void {
    if (!maySignIn(user)) {
      throw new AppException(
        HttpStatus.FORBIDDEN,
        ERROR_CODES.ACCOUNT_DISABLED,
        'Your account has been disabled. Please contact your administrator.',
      );
    }
  }

  async refresh(raw: string | undefined): Promise<{ accessToken: string; refreshToken?: string }> {
    // rotate() refuses (and ends) the session of an account disabled, blocked or gone.
    const { session, refreshToken } = await this.sessions.rotate(raw);
    return { accessToken: this.tokens.signAccess(session.userId, session.id), refreshToken };
  }

  private logoutRedirect?: (sessionId: string) => Promise<string | undefined>;

  /** The corporate sign-on feature tells where an SSO session's logout continues (the provider's end of it). */
  useLogoutRedirect(resolve: (sessionId: string) => Promise<string | undefined>): void {
    this.logoutRedirect = resolve;
  }

  /** Ends the caller's session; answers where the browser goes next when the provider's session must end too. */
  async logout(authorization: string | undefined, client?: ClientInfo): Promise<string | undefined> {
    const payload = this.tokens.peekAccess(authorization);
    if (!payload) return undefined;
    // Read before the end: a session that is over already has nothing left to end at the provider.
    const active = await this.sessions.isActive(payload.sid);
    const logoutUrl = active && this.logoutRedirect ? await this.logoutRedirect(payload.sid) : undefined;
    await this.sessions.end(payload.sid, 'logout', client);
    return logoutUrl;
  }

  /** The forced change of the CHANGE_PASSWORD step; every session of the account ends. */
  async changeForcedPassword(
    authorization: string | undefined,
    dto: ChangePasswordDto,
    ip: string,
    client?: ClientInfo,
  ): Promise<{ success: true }> {
    const userId = this.tokens.verifyChallenge(authorization, 'change-password');
    const user = await this.users.findOneBy({ id: userId });
    if (!user) throw AppException.unauthorized();
    this.assertActive(user);
    await this.throttle.check(user.email, ip);
    if (!(await this.passwords.verify(user.passwordHash, dto.currentPassword))) {
      await this.recordFailure(user.email, ip, user);
      throw AppException.badRequest(ACCOUNT_MESSAGES.CURRENT_PASSWORD_WRONG, ERROR_CODES.INVALID_CREDENTIALS);
    }
    await this.setPassword(user, dto.newPassword, dto.currentPassword, { type: 'PASSWORD_CHANGED', client });
    return { success: true };
  }

  /** Sets a new password (never the same as the old one) and ends every session of the account, with its refresh token. */
  async setPassword(
    user: User,
    newPassword: string,
    oldPassword?: string,
    audit: { type: 'PASSWORD_CHANGED' | 'PASSWORD_RESET'; client?: ClientInfo } = { type: 'PASSWORD_CHANGED' },
  ): Promise<void> {
    if (oldPassword !== undefined && oldPassword === newPassword) {
      throw AppException.badRequest(ACCOUNT_MESSAGES.SAME_PASSWORD, ERROR_CODES.WEAK_PASSWORD);
    }
    await this.breached.assertNotBreached(newPassword, 'newPassword');
    const passwordHash = await this.passwords.hash(newPassword);
    await this.users.manager.transaction((tx) => this.replacePassword(tx, user, passwordHash, audit));
  }

  /** Inside `tx`: the new hash, every session of the account ended with it, and the audit event. */
  private async replacePassword(
    tx: EntityManager,
    user: User,
    passwordHash: string,
    audit: { type: 'PASSWORD_CHANGED' | 'PASSWORD_RESET'; client?: ClientInfo },
  ): Promise<void> {
    await tx
      .getRepository(User)
      .update({ id: user.id }, { passwordHash, mustChangePassword: false, passwordChangedAt: new Date() });
    await this.sessions.endAllForUsers([user.id], 'password-changed', undefined, tx);
    await this.audit.record(tx, {
      type: audit.type,
      actor: user,
      target: user,
      client: audit.client,
      summary: audit.type === 'PASSWORD_RESET' ? 'Password reset through an e-mailed link' : 'Password changed',
    });
  }

  /**
   * Answers at once, the same for every request: the request is stored and handled after the answer
   * (forgotPasswordTask), so neither the answer nor its timing reveals whether an account exists or has MFA.
   */
  async forgotPassword(dto: ForgotPasswordDto, client?: ClientInfo): Promise<{ success: true; message: string }> {
    const request: ForgotPasswordRequest = {
      username: dto.username.toLowerCase(),
      ...(dto.mfaCode ? { mfaCode: dto.mfaCode } : {}),
      // For the audit event of the link, when one is issued.
      client: { ip: client?.ip ?? null, userAgent: client?.userAgent ?? null },
    };
    await this.mail.enqueueTask(FORGOT_PASSWORD_TASK, request);
    return { success: true, message: AUTH_MESSAGES.FORGOT_PASSWORD_SENT };
  }

  /** Sends a reset link when the account exists, is active and (with MFA) the code is right; with MFA and no right code, a notice. */
  async forgotPasswordTask({ username, mfaCode, client }: ForgotPasswordRequest): Promise<void> {
    const user = await this.users.findOneBy({ email: username });
    // An account without a password signs in through SSO, unless its organisation's directory provisioned it (SCIM):
    // then this link is how it sets its first password.
    if (!user || !maySignIn(user) || (!user.passwordHash && !user.managedBy)) return;

    if (user.isMFAEnabled && !(mfaCode && (await this.mfa.verifyTotp(user, mfaCode)))) {
      await this.mail.send({
        to: user.email,
        subject: `${PRODUCT_NAME}: password reset not sent`,
        text:
          'Someone asked to reset the password of your account, but your account has multi-factor authentication and ' +
          'the request did not carry a valid code from your authenticator app, so no reset link was issued.\n\n' +
          "If it was you, request the reset again and enter the current code in 'Enter MFA Code'.\n" +
          'If it was not you, you need do nothing: your password is unchanged.',
      });
      return;
    }

    const token = randomToken();
    await this.resetTokens.manager.transaction(async (tx) => {
      await tx.getRepository(PasswordResetToken).insert({
        userId: user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + LIFETIMES.RESET_TOKEN_SECONDS * 1000),
        usedAt: null,
      });
      // Audit
      await this.audit.record(tx, {
        type: 'PASSWORD_RESET_REQUESTED',
        actor: 'anonymous',
        target: user,
        client,
        summary: 'Password reset link e-mailed',
      });
    });
    const link = `${this.config.publicUrl}/resetPassword?token=${encodeURIComponent(token)}`;
    await this.mail.send({
      to: user.email,
      subject: `${PRODUCT_NAME}: reset your password`,
      text:
        `To choose a new password, open this link:\n\n${link}\n\n` +
        'The link works once and expires in one hour. If you did not ask for it, ignore this e-mail: your password is unchanged.',
    });
  }

  async resetPassword(dto: ResetPasswordDto, client?: ClientInfo): Promise<{ success: true }> {
    const invalid = () =>
      AppException.badRequest(
        'This password reset link is invalid, has expired or has already been used. Please request a new one.',
        ERROR_CODES.RESET_TOKEN_INVALID,
      );
    const token = await this.resetTokens.findOneBy({ tokenHash: sha256(dto.token) });
    if (!token || token.usedAt || token.expiresAt <= new Date()) throw invalid();
    const user = await this.users.findOneBy({ id: token.userId });
    if (!user || !maySignIn(user)) throw invalid();
    // Before the token is claimed: a refused password leaves the link usable for a better one.
    await this.breached.assertNotBreached(dto.password, 'password');
    const passwordHash = await this.passwords.hash(dto.password);
    await this.users.manager.transaction(async (tx) => {
      // Claim the token first: a link used twice at once still changes the password once.
      const claimed = await tx
        .getRepository(PasswordResetToken)
        .update({ id: token.id, usedAt: IsNull() }, { usedAt: new Date() });
      if (!claimed.affected) throw invalid();
      await tx.getRepository(PasswordResetToken).update({ userId: user.id, usedAt: IsNull() }, { usedAt: new Date() });
      await this.replacePassword(tx, user, passwordHash, { type: 'PASSWORD_RESET', client });
    });
    await this.throttle.recordSuccess(user.email);
    return { success: true };
  }
}
