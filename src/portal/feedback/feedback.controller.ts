import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { AuthUser } from '../common/auth-user';
import { Access } from '../common/decorators/access.decorators';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import { CAPABILITY_ROLES } from '../shared/roles';
import { FeedbackDto } from './dto/feedback.dto';
import { FeedbackService } from './feedback.service';
import { Answers } from '../openapi/decorators';

/** Access: every signed-in role gives feedback as itself (a userId other than the caller's is refused). */
@ApiTags('feedback')
@Controller('api/userFeedback')
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Answers(200, 'FeedbackCreated')
  @Post('add')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  @Throttle({ default: { limit: 20, ttl: 60_000 } })
  add(@CurrentUser() user: AuthUser, @Body() dto: FeedbackDto) {
    return this.feedback.add(user, dto);
  }
}
