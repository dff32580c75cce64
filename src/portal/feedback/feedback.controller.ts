import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { FeedbackDto } from './dto/feedback.dto';
import { FeedbackService } from './feedback.service';
import { Answers } from '../../platform/openapi/decorators';

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
