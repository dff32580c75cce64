import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { randomToken, sha256 } from '../../../platform/crypto/secrets';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { maySignIn } from '../../credentials/may-sign-in';
import { MailService } from '../../../platform/mail/mail.service';
import { MfaService } from '../../mfa';
import { ClientInfo } from '../../../platform/web/request-context';
import { LIFETIMES } from '../../../shared/limits';
import { AUTH_MESSAGES, PRODUCT_NAME } from '../../../shared/messages';
import { User } from '../../../platform/database/entities/user.entity';
import { ForgotPasswordDto } from '../dto/password.dto';
import { PasswordResetToken } from '../entities/password-reset-token.entity';

/** A stored forgot-password request, handled after the answer. */
export interface ForgotPasswordRequest {
  username: string;
  mfaCode?: string;
  /** Where the request came from, for the audit event of the link. */
  client?: ClientInfo;
}
export const FORGOT_PASSWORD_TASK = 'forgot-password';

/** POST /auth/forgot-password: a reset link e-mailed to an account that may have one. */
@Injectable()
export class ForgotPasswordService implements OnModuleInit {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(PasswordResetToken) private readonly resetTokens: Repository<PasswordResetToken>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mfa: MfaService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
  ) {}

  onModuleInit(): void {
    this.mail.registerTask(FORGOT_PASSWORD_TASK, (request) =>
      this.forgotPasswordTask(request as ForgotPasswordRequest),
    );
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

    await this.sendResetLink(user, client, 'Password reset link e-mailed');
  }

  /** A single-use reset link e-mailed to the account (the forgotten-password flow's, or after "This wasn't me"). */
  async sendResetLink(user: User, client: ClientInfo | undefined, summary: string): Promise<void> {
    const token = randomToken();
    await this.resetTokens.manager.transaction(async (tx) => {
      await tx.getRepository(PasswordResetToken).insert({
        userId: user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + LIFETIMES.RESET_TOKEN_SECONDS * 1000),
        usedAt: null,
      });
      await this.audit.record(tx, {
        type: 'PASSWORD_RESET_REQUESTED',
        actor: 'anonymous',
        target: user,
        client,
        summary,
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
}
