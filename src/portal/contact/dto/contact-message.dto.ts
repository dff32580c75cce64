import { IsString, MaxLength } from 'class-validator';
import { CONTACT_MESSAGES, ContactMessage, SHELL_LIMITS } from '../../../shared/portal/shell';

/**
 * POST /api/users/contact-email/ (spec 001 §7): name, email, subject, message. The decorators only
 * type the body; the form's own rule (src/shared/portal/shell.ts validateContactMessage) runs in the service.
 */
export class ContactMessageDto implements ContactMessage {
  @IsString({ message: CONTACT_MESSAGES.NAME_REQUIRED })
  @MaxLength(SHELL_LIMITS.CONTACT_NAME_MAX)
  name!: string;

  @IsString({ message: CONTACT_MESSAGES.EMAIL_REQUIRED })
  @MaxLength(SHELL_LIMITS.CONTACT_EMAIL_MAX)
  email!: string;

  @IsString({ message: CONTACT_MESSAGES.SUBJECT_REQUIRED })
  @MaxLength(SHELL_LIMITS.CONTACT_SUBJECT_MAX)
  subject!: string;

  @IsString({ message: CONTACT_MESSAGES.MESSAGE_REQUIRED })
  @MaxLength(SHELL_LIMITS.CONTACT_MESSAGE_MAX)
  message!: string;
}
