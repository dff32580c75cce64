import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Public } from '../common/decorators/access.decorators';
import { TokenService } from '../credentials/token.service';
import { ContactService } from './contact.service';
import { ContactMessageDto } from './dto/contact-message.dto';
import { Answers, Credentials } from '../openapi/decorators';

/**
 * Access: public and rate-limited (20 a minute per address): the Contact Us form is also how a visitor
 * who is not signed in (the logged-out profile menu's Give Feedback) reaches support. A valid access
 * token, when sent, names the sender's account in the e-mail.
 */
@ApiTags('contact')
@Controller('api/users/contact-email')
export class ContactController {
  constructor(
    private readonly contact: ContactService,
    private readonly tokens: TokenService,
  ) {}

  @Answers(200, 'SuccessOnly')
  @Credentials(['bearer'], true)
  @Post()
  @Public()
  @HttpCode(200)
  @Throttle({ default: { limit: 20, ttl: 60_000 } })
  send(@Headers('authorization') authorization: string | undefined, @Body() dto: ContactMessageDto) {
    return this.contact.send(this.tokens.peekAccess(authorization)?.sub ?? null, dto);
  }
}
