import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { AppException } from '../../platform/web/app.exception';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { MailService } from '../../platform/mail/mail.service';
import { ERROR_CODES } from '../../shared/messages';
import { CONTACT_MESSAGES, validateContactMessage } from '../../shared/portal/shell';
import { PRODUCT_NAME } from '../../shared/messages';
import { User } from '../../platform/database/entities/user.entity';
import { ContactMessageDto } from './dto/contact-message.dto';

/** Contact Us: the same rule as the form (spec 001 §5), then an e-mail to SUPPORT_EMAIL. */
@Injectable()
export class ContactService {
  private readonly logger = new Logger('Contact');

  constructor(
    private readonly mail: MailService,
    @InjectRepository(User) private readonly users: Repository<User>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `signedInUserId`: the sender's account when the request carries a valid access token. */
  async send(signedInUserId: number | null, dto: ContactMessageDto): Promise<{ success: true }> {
    const errors = validateContactMessage(dto);
    const details = Object.entries(errors).map(([field, message]) => ({ field, message: message! }));
    if (details.length)
      throw AppException.badRequest(details.map((d) => d.message).join('; '), ERROR_CODES.VALIDATION_FAILED, {
        errors: details,
      });

    const email = dto.email.trim();
    const account = signedInUserId ? await this.users.findOneBy({ id: signedInUserId }) : null;
    try {
      await this.mail.send({
        to: this.config.supportEmail,
        replyTo: email,
        subject: `${PRODUCT_NAME} contact: ${dto.subject.trim()}`,
        text: [
          `From: ${dto.name.trim()} <${email}>`,
          account
            ? `Signed-in account: ${account.email} (user ${account.id}, organisation ${account.organisationId})`
            : 'Sent by a visitor who was not signed in.',
          '',
          `Subject: ${dto.subject.trim()}`,
          '',
          dto.message.trim(),
        ].join('\n'),
      });
    } catch (e) {
      this.logger.error(`Contact message could not be e-mailed: ${(e as Error).message}`);
      throw new AppException(HttpStatus.SERVICE_UNAVAILABLE, ERROR_CODES.MAIL_FAILED, CONTACT_MESSAGES.FAILED);
    }
    return { success: true };
  }
}
