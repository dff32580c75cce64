import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { PasswordRulesService } from '../../credentials/password-rules.service';
import { PasswordService } from '../../credentials/password.service';
import { SessionsService } from '../../sessions';
import { CurrentPasswordGuesses, storeNewPassword } from '../../users';
import { Implements } from '../../../platform/wiring';
import { ClientInfo } from '../../../platform/web/request-context';
import { ACCOUNT_MESSAGES, ERROR_CODES } from '../../../shared/messages';
import { User } from '../../../platform/database/entities/user.entity';
import { ChangePasswordDto } from '../dto/password.dto';
import { assertMaySignIn } from '../sign-in/assert-may-sign-in';
import { SignInAttempts } from '../sign-in/sign-in-attempts';

/** How a new password came about, for its audit event. */
export interface PasswordAudit {
  type: 'PASSWORD_CHANGED' | 'PASSWORD_RESET';
  client?: ClientInfo;
}

/**
 * A new password for an account: the forced change of the sign-in's CHANGE_PASSWORD step, and the reset's. The
 * profile's change (the users feature's) checks its current password under the same throttle, through this service.
 */
@Injectable()
@Implements(CurrentPasswordGuesses)
export class PasswordChangeService implements CurrentPasswordGuesses {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly attempts: SignInAttempts,
    private readonly passwords: PasswordService,
    private readonly rules: PasswordRulesService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
  ) {}

  /** The profile's change of its own password: the current one is guessed under this throttle (429 when locked). */
  allowGuess(email: string, ip: string): Promise<void> {
    return this.attempts.checkThrottle(email, ip);
  }

  /** The profile's change: a wrong current password counts as a failed sign-in of the account from that address. */
  countWrongGuess(email: string, ip: string, user: User): Promise<void> {
    return this.attempts.countFailure(email, ip, user);
  }

  /** POST /auth/change-password: the forced change of the CHANGE_PASSWORD step; every session of the account ends. */
  async changeForcedPassword(
    userId: number,
    dto: ChangePasswordDto,
    ip: string,
    client?: ClientInfo,
  ): Promise<{ success: true }> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user) throw AppException.unauthorized();
    assertMaySignIn(user);
    await this.attempts.checkThrottle(user.email, ip);
    if ((await this.passwords.verifyAccount(user, dto.currentPassword)) !== 'right') {
      await this.attempts.countFailure(user.email, ip, user);
      throw AppException.badRequest(ACCOUNT_MESSAGES.CURRENT_PASSWORD_WRONG, ERROR_CODES.INVALID_CREDENTIALS);
    }
    if (dto.currentPassword === dto.newPassword)
      throw AppException.badRequest(ACCOUNT_MESSAGES.SAME_PASSWORD, ERROR_CODES.WEAK_PASSWORD);
    const passwordHash = await this.acceptable(user, dto.newPassword, 'newPassword');
    await this.users.manager.transaction((tx) =>
      this.replace(tx, user, passwordHash, { type: 'PASSWORD_CHANGED', client }),
    );
    return { success: true };
  }

  /** The hash of a new password that meets the organisation's minimum and is not known to be breached (else 400 naming `field`). */
  async acceptable(user: User, newPassword: string, field: string): Promise<string> {
    await this.rules.assertAcceptable(newPassword, field, user.organisationId);
    return this.passwords.hash(newPassword);
  }

  /** Inside `tx`: the new hash, every session of the account ended with it, and the audit event. */
  async replace(tx: EntityManager, user: User, passwordHash: string, audit: PasswordAudit): Promise<void> {
    await storeNewPassword(tx, this.sessions, this.audit, user, passwordHash, {
      type: audit.type,
      actor: user,
      client: audit.client,
      summary: audit.type === 'PASSWORD_RESET' ? 'Password reset through an e-mailed link' : 'Password changed',
    });
  }
}
