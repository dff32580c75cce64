import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AppException } from '../../../platform/web/app.exception';
import { sha256 } from '../../../platform/crypto/secrets';
import { maySignIn } from '../../credentials/may-sign-in';
import { ClientInfo } from '../../../platform/web/request-context';
import { ERROR_CODES } from '../../../shared/messages';
import { User } from '../../../platform/database/entities/user.entity';
import { ResetPasswordDto } from '../dto/password.dto';
import { PasswordResetToken } from '../entities/password-reset-token.entity';
import { SignInAttempts } from '../sign-in/sign-in-attempts';
import { PasswordChangeService } from './password-change.service';

/** POST /auth/reset-password: the e-mailed link's one use, a new password, every session ended. */
@Injectable()
export class ResetPasswordService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(PasswordResetToken) private readonly resetTokens: Repository<PasswordResetToken>,
    private readonly passwords: PasswordChangeService,
    private readonly attempts: SignInAttempts,
  ) {}

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
    const passwordHash = await this.passwords.acceptable(user, dto.password, 'password');
    await this.users.manager.transaction(async (tx) => {
      // Claim the token first: a link used twice at once still changes the password once.
      const claimed = await tx
        .getRepository(PasswordResetToken)
        .update({ id: token.id, usedAt: IsNull() }, { usedAt: new Date() });
      if (!claimed.affected) throw invalid();
      await tx.getRepository(PasswordResetToken).update({ userId: user.id, usedAt: IsNull() }, { usedAt: new Date() });
      await this.passwords.replace(tx, user, passwordHash, { type: 'PASSWORD_RESET', client });
    });
    await this.attempts.succeeded(user.email);
    return { success: true };
  }
}
