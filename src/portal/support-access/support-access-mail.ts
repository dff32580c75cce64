import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../../platform/web/auth-user';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { User } from '../../platform/database/entities/user.entity';
import { MailService } from '../../platform/mail/mail.service';
import { formatMailDateTime } from '../../shared/display-formats';
import { SUPPORT_ACCESS_END_REASONS, SUPPORT_ACCESS_MESSAGES as M } from '../../shared/portal/support-access';
import { SupportAccess } from './entities/support-access.entity';

/** What support access e-mails: the request to the site admins who decide it, the end to the member acted as. */
@Injectable()
export class SupportAccessMail {
  constructor(
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Tells a site admin of a request waiting for a decision; stored in `tx`. */
  async requested(tx: EntityManager, admin: User, caller: AuthUser, member: User, row: SupportAccess): Promise<void> {
    await this.mail.send(
      {
        to: admin.email,
        subject: M.MAIL_REQUEST_SUBJECT,
        text: [
          `${caller.email} (E-Support) asks to act as ${member.email} in your organisation's portal, for at most 60 minutes.`,
          `Reason given: ${row.reason}`,
          '',
          `Approve or refuse it before ${this.when(row.expiresAt)}, when it lapses:`,
          `${this.config.publicUrl}/users/support-access`,
        ].join('\n'),
      },
      tx,
    );
  }

  /** Tells the member that a session as them ended, and why; stored in `tx`. */
  async ended(tx: EntityManager, member: User, row: SupportAccess, endedAt: Date): Promise<void> {
    await this.mail.send(
      {
        to: member.email,
        subject: M.MAIL_ENDED_SUBJECT,
        text: [
          `${row.supportUserEmail} (E-Support) acted as you in the portal from ${this.when(row.startedAt ?? endedAt)} to ${this.when(endedAt)}.`,
          `Reason given: ${row.reason}`,
          `The session ended because it ${SUPPORT_ACCESS_END_REASONS[row.endReason ?? 'stopped']}.`,
          '',
          "Your organisation's audit log lists everything done in it. If you did not expect this, tell your site admin.",
        ].join('\n'),
      },
      tx,
    );
  }

  /** A moment as the product's e-mails write it. */
  private when(at: Date): string {
    return formatMailDateTime(at, this.config.insightsTimeZone);
  }
}
