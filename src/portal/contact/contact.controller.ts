import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Access } from '../../platform/web/decorators/access.decorators';
import { AuthUser } from '../../platform/web/auth-user';
import { OptionalCaller } from '../../platform/web/decorators/current-user.decorator';
import { ContactService } from './contact.service';
import { ContactMessageDto } from './dto/contact-message.dto';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: public and rate-limited (20 a minute per address): the Contact Us form is also how a visitor
 * who is not signed in (the logged-out profile menu's Give Feedback) reaches support. A valid access
 * token of an open session, when sent, names the sender's account in the e-mail.
 */
@ApiTags('contact')
@Controller('api/users/contact-email')
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  @Answers(200, 'SuccessOnly')
  @Access.public({ session: 'optional' })
  @Post()
  @HttpCode(200)
  @Throttle({ default: { limit: 20, ttl: 60_000 } })
  send(@OptionalCaller() caller: AuthUser | null, @Body() dto: ContactMessageDto) {
    return this.contact.send(caller?.id ?? null, dto);
  }
}
