import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { Answers } from '../../platform/openapi/decorators';
import { SessionsService } from '../../identity/sessions';
import { INSIGHTS_MESSAGES } from '../../shared/administration/insights';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { EndOtherSessionsQueryDto, NotMeDto } from './dto/my-security.dto';
import { MySecurityService } from './my-security.service';

/**
 * Access: every signed-in member, on their own sessions and sign-ins only (another account's session id is a 404).
 * "This wasn't me" is public: the link's one-time token is the proof, and the call is throttled.
 */
@ApiTags('my security')
@Controller()
export class MySecurityController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly security: MySecurityService,
  ) {}

  @Get('api/me/sessions')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  @Answers(200, ['MySession'], 'Your open sessions, newest first; this one marked current')
  mySessions(@CurrentUser() caller: AuthUser) {
    return this.sessions.listOwn(caller);
  }

  @Delete('api/me/sessions')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  @Answers(200, 'MySessionsEnded', 'Every other session of yours has ended, its sockets closed')
  endOthers(
    @CurrentUser() caller: AuthUser,
    @Query() query: EndOtherSessionsQueryDto,
    @Client() client: RequestContext,
  ) {
    if (query.others !== 'true') throw AppException.badRequest(INSIGHTS_MESSAGES.OTHERS_REQUIRED);
    return this.sessions.endOthers(caller, client);
  }

  @Delete('api/me/sessions/:id')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  @Answers(200, 'MySessionsEnded', 'The session has ended, its sockets closed')
  endOne(
    @CurrentUser() caller: AuthUser,
    @Param(
      'id',
      new ParseUUIDPipe({ exceptionFactory: () => AppException.notFound(INSIGHTS_MESSAGES.SESSION_NOT_FOUND) }),
    )
    id: string,
    @Client() client: RequestContext,
  ) {
    return this.sessions.endOwn(caller, id, client);
  }

  @Get('api/me/sign-ins')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  @Answers(200, ['MySignIn'], 'Your last 50 sign-ins and failed attempts, newest first')
  signIns(@CurrentUser() caller: AuthUser) {
    return this.security.signIns(caller);
  }

  @Post('auth/not-me')
  @HttpCode(200)
  @Access.public()
  @Throttle({ default: { limit: 10, ttl: 60_000 } })
  @Answers(200, 'SuccessMessage', 'Every session ended; a password reset link e-mailed')
  notMe(@Body() dto: NotMeDto, @Client() client: RequestContext) {
    return this.security.notMe(dto.token, client);
  }
}
