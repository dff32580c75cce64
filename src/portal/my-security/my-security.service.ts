import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { ForgotPasswordService } from '../../identity/auth';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { sha256 } from '../../platform/crypto/secrets';
import { ClientInfo } from '../../platform/web/request-context';
import { maySignIn } from '../../identity/credentials/may-sign-in';
import { User } from '../../platform/database/entities/user.entity';
import { NotMeLink } from './entities/not-me-link.entity';
import { SignInHistory } from './entities/sign-in-history.entity';
import { removePasskeysAddedSince } from '../../identity/passkeys';
import { SessionsService } from '../../identity/sessions';
import {
  INSIGHTS_MESSAGES,
  MY_SIGN_INS_LIMIT,
  MySignIn,
  NOT_ME_LINK_HOURS,
  SignInMethod,
} from '../../shared/administration/insights';
import { ERROR_CODES } from '../../shared/messages';

/** A member's own security page: their sign-ins; and the "This wasn't me" link of a new-browser e-mail. */
@Injectable()
export class MySecurityService {
  constructor(
    @InjectRepository(SignInHistory) private readonly history: Repository<SignInHistory>,
    @InjectRepository(NotMeLink) private readonly links: Repository<NotMeLink>,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly resets: ForgotPasswordService,
  ) {}

  /** GET /api/me/sign-ins: the caller's last 50 sign-ins and failed attempts, newest first. */
  async signIns(caller: AuthUser): Promise<MySignIn[]> {
    const rows = await this.history.find({
      where: { userId: caller.id },
      order: { at: 'DESC', id: 'DESC' },
      take: MY_SIGN_INS_LIMIT,
    });
    return rows.map((r) => ({
      at: r.at.toISOString(),
      outcome: r.outcome,
      method: (r.method as SignInMethod | null) ?? null,
      ip: r.ip,
      userAgent: r.userAgent,
      newDevice: !!r.newDevice,
    }));
  }

  /**
   * POST /auth/not-me: the link works once; it ends every session of the account (sockets included) and its trusted
   * devices, and e-mails a password reset link. An unknown, used or expired token is a 400 and changes nothing.
   */
  async notMe(token: string, client: ClientInfo): Promise<{ success: true; message: string }> {
    const user = await this.links.manager.transaction(async (tx) => {
      const link = await tx
        .getRepository(NotMeLink)
        .findOneBy({ tokenHash: sha256(token), usedAt: IsNull(), expiresAt: MoreThan(new Date()) });
      if (!link) return null;
      // Parallel clicks: only the one whose update marks the link used goes on.
      const claimed = await tx
        .getRepository(NotMeLink)
        .update({ id: link.id, usedAt: IsNull() }, { usedAt: new Date() });
      if (!claimed.affected) return null;
      const owner = await tx.getRepository(User).findOneBy({ id: link.userId });
      if (!owner) return null;
      await this.sessions.endAllForUsers([owner.id], 'not-me', undefined, tx);
      // Whoever signed in knows the password: it opens nothing until the owner sets a new one through the reset
      // e-mailed below. A passkey registered since that sign-in may be theirs (a passkey alone signs in): it goes;
      // the owner's earlier passkeys and single sign-on keep working.
      const blocked = owner.passwordHash !== null;
      if (blocked) await tx.getRepository(User).update({ id: owner.id }, { passwordCompromisedAt: new Date() });
      const reportedAt = new Date(link.expiresAt.getTime() - NOT_ME_LINK_HOURS * 3_600_000);
      const passkeysRemoved = await removePasskeysAddedSince(tx, owner.id, reportedAt);
      await this.audit.record(tx, {
        type: 'NOT_ME_REPORTED',
        actor: owner,
        target: owner,
        client,
        summary: [
          "New-browser sign-in reported as not the owner's: every session ended",
          blocked ? ', the password blocked until reset' : '',
          passkeysRemoved > 0 ? `, ${passkeysRemoved} passkey(s) registered since removed` : '',
        ].join(''),
      });
      return owner;
    });
    if (!user) throw AppException.badRequest(INSIGHTS_MESSAGES.NOT_ME_INVALID, ERROR_CODES.VALIDATION_FAILED);
    // As the forgotten-password flow: only an account that may sign in with a password (or set its first one).
    if (maySignIn(user) && (user.passwordHash || user.managedBy))
      await this.resets.sendResetLink(user, client, 'Password reset link e-mailed after "This wasn\'t me"');
    return { success: true, message: INSIGHTS_MESSAGES.NOT_ME_DONE };
  }
}
