import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { MailService } from '../../platform/mail/mail.service';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { PRODUCT_NAME } from '../../shared/messages';
import { User } from '../../platform/database/entities/user.entity';
import { FeedbackDto } from './dto/feedback.dto';
import { UserFeedback } from './entities/user-feedback.entity';

/** Feedback is stored first (so nothing is lost), then e-mailed to SUPPORT_EMAIL. */
@Injectable()
export class FeedbackService {
  private readonly logger = new Logger('Feedback');

  constructor(
    @InjectRepository(UserFeedback) private readonly feedback: Repository<UserFeedback>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async add(caller: AuthUser, dto: FeedbackDto): Promise<{ success: true; id: number }> {
    if (dto.userId !== undefined && dto.userId !== caller.id)
      throw AppException.badRequest('userId must be the signed-in user.');
    const saved = await this.feedback.save(
      this.feedback.create({
        title: dto.title,
        content: dto.content,
        userId: caller.id,
        organisationId: caller.organisationId,
      }),
    );
    const user = await this.users.findOneBy({ id: caller.id });
    const org = await this.organisations.findOneBy({ id: caller.organisationId });
    const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || caller.email;
    try {
      await this.mail.send({
        to: this.config.supportEmail,
        replyTo: caller.email,
        subject: `${PRODUCT_NAME} feedback: ${dto.title}`,
        text: [
          `Feedback #${saved.id} from ${name} <${caller.email}>`,
          `Organisation: ${org ? `${org.code} - ${org.name}` : caller.organisationId}`,
          '',
          `Title: ${dto.title}`,
          '',
          dto.content,
        ].join('\n'),
      });
    } catch (e) {
      // Stored already: support can still read it; the user's feedback has been received.
      this.logger.error(`Feedback #${saved.id} stored, but the e-mail to support failed: ${(e as Error).message}`);
    }
    return { success: true, id: saved.id };
  }
}
