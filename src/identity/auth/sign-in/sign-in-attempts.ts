import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { MailService } from '../../../platform/mail/mail.service';
import { ClientInfo } from '../../../platform/web/request-context';
import { SIGN_IN_FAILURE_REASONS, SignInFailureReason, SignInMethod } from '../../../shared/administration/insights';
import { User } from '../../../platform/database/entities/user.entity';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { findRowWith } from '../../../platform/database/entity-rows';
import { LoginThrottleService } from '../login-throttle.service';
import { PasswordService } from '../../credentials/password.service';
import { AUTH_MESSAGES, ERROR_CODES, PRODUCT_NAME } from '../../../shared/messages';
import { SIGN_IN_POLICY_COLUMNS, SignInPolicy } from './sso-requirement';

/** A client as a sign-in step sees it: its address is always known. */
export type SignInClient = ClientInfo & { ip: string };

/**
 * The bookkeeping around every sign-in attempt: the throttle of an account and address, the password checked, failures
 * counted (and the owner alerted when the account is under attack), refusals audited.
 */
@Injectable()
export class SignInAttempts {
  private readonly logger = new Logger('Auth');
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly throttle: LoginThrottleService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly passwords: PasswordService,
  ) {}

  /**
   * The throttle, then the account and its password. Always one argon2 verification (against a dummy hash without an
   * account or a password), so the answer takes as long for an unknown e-mail as for a wrong password.
   * `failuresCounted`: whether the throttle counts failures against the account (a success clears them). The account
   * comes with its organisation's sign-in rules, read in the same statement (`organisation`, for
   * {@link OrganisationSignInRules.policyFor}).
   */
  async checkPassword(
    email: string,
    password: string,
    client: SignInClient,
  ): Promise<{ user: User; organisation: SignInPolicy | null; failuresCounted: boolean }> {
    const failuresCounted = await this.check(email, client);
    const found = await findRowWith(
      this.users,
      { email },
      { repository: this.organisations, by: 'organisationId', select: SIGN_IN_POLICY_COLUMNS },
    );
    const user = found?.row ?? null;
    const checked = await this.passwords.verifyAccount(user, password);
    if (!user || checked !== 'right') {
      // A password blocked after "This wasn't me" is answered and counted as a wrong one: whoever holds it learns
      // nothing, not even that it was right; the trail records why.
      await this.failed(email, user, client, checked === 'blocked' ? 'PASSWORD_BLOCKED' : 'WRONG_PASSWORD');
      throw AppException.unauthorized(AUTH_MESSAGES.INVALID_CREDENTIALS, ERROR_CODES.INVALID_CREDENTIALS);
    }
    return { user, organisation: found?.joined ?? null, failuresCounted };
  }

  /**
   * The sign-in throttle of an account and address; a refusal while locked is audited. Answers whether failures are
   * counted against the account (see {@link succeeded}).
   */
  async check(email: string, client: SignInClient, method: SignInMethod = 'password'): Promise<boolean> {
    try {
      return await this.throttle.check(email, client.ip);
    } catch (e) {
      if (e instanceof AppException && e.getStatus() === HttpStatus.TOO_MANY_REQUESTS) {
        await this.refused(
          'SIGN_IN_LOCKED',
          email,
          await this.users.findOneBy({ email }),
          client,
          'Sign-in refused while locked after repeated failures',
          { method, reason: 'LOCKED' },
        );
      }
      throw e;
    }
  }

  /** The throttle alone, for a later step of a sign-in already counted (the forced password change). */
  async checkThrottle(email: string, ip: string): Promise<void> {
    await this.throttle.check(email, ip);
  }

  /** A wrong credential: counted against the account and address, and audited with its reason. */
  async failed(
    email: string,
    user: User | null,
    client: SignInClient,
    reason: SignInFailureReason,
    method: SignInMethod = 'password',
  ): Promise<void> {
    await this.countFailure(email, client.ip, user);
    await this.refused('SIGN_IN_FAILED', email, user, client, SIGN_IN_FAILURE_REASONS[reason], { method, reason });
  }

  /** Audit: a refused sign-in, by nobody known, against the account if it exists. */
  refused(
    type: 'SIGN_IN_FAILED' | 'SIGN_IN_LOCKED',
    username: string,
    user: User | null,
    client: ClientInfo,
    why: string,
    signIn: { method: SignInMethod; reason: SignInFailureReason },
  ): Promise<void> {
    return this.audit.record(this.audit.manager, {
      type,
      actor: 'anonymous',
      target: user,
      organisationId: user?.organisationId ?? null,
      client,
      summary: `${why} for ${username.slice(0, 100)}`,
      signIn,
    });
  }

  /**
   * A successful sign-in (or password reset) clears the account's (and address's) failures; `failuresCounted: false`
   * (this request's check found none) skips the read that would find nothing to clear.
   */
  async succeeded(email: string, ip?: string, failuresCounted = true): Promise<void> {
    if (failuresCounted) await this.throttle.recordSuccess(email, ip);
  }

  /** Counts a failed attempt; when the account is under attack, tells its owner (once per window). */
  async countFailure(email: string, ip: string, user: User | null): Promise<void> {
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
}
