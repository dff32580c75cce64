import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { Answers, Errors } from '../../platform/openapi/decorators';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { SupportAccessQueryDto, SupportAccessRequestDto } from './dto/support-access.dto';
import { SupportAccessQueries } from './support-access-queries.service';
import { SupportAccessRequests } from './support-access-requests.service';
import { SupportAccessSessions } from './support-access-sessions.service';

/**
 * Access (docs/support-access.md): E-Support asks (a sensitive call, never from a support-access session) and starts
 * its own requests (after step-up); the organisation's site admins approve or refuse; the E-Support account that
 * asked or the site admins end it; E-Support lists every organisation's, site admins and administrators their own.
 * Another organisation's request is a 404.
 */
@ApiTags('support access')
@Controller('api/support-access')
export class SupportAccessController {
  constructor(
    private readonly requests: SupportAccessRequests,
    private readonly queries: SupportAccessQueries,
    private readonly sessions: SupportAccessSessions,
  ) {}

  @Post()
  @HttpCode(201)
  @Access({ roles: CAPABILITY_ROLES.SUPPORT, stepUp: true, supportSession: 'refused' })
  @Answers(201, 'SupportAccessCreated', 'Asked: pending approval, or approved at once by the policy')
  @Errors(404)
  ask(@CurrentUser() caller: AuthUser, @Body() dto: SupportAccessRequestDto, @Client() client: RequestContext) {
    return this.requests.request(caller, dto, client);
  }

  @Get()
  @Access({ roles: CAPABILITY_ROLES.SUPPORT_ACCESS_READ })
  @Answers(200, ['SupportAccessItem'])
  list(@CurrentUser() caller: AuthUser, @Query() query: SupportAccessQueryDto) {
    return this.queries.list(caller, query);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SUPPORT_ACCESS_DECIDE })
  @Answers(200, 'SupportAccessItem')
  @Errors(404, 409)
  approve(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.requests.decide(caller, id, true, client);
  }

  @Post(':id/refuse')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SUPPORT_ACCESS_DECIDE })
  @Answers(200, 'SupportAccessItem')
  @Errors(404, 409)
  refuse(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.requests.decide(caller, id, false, client);
  }

  @Post(':id/start')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SUPPORT, stepUp: true })
  @Answers(200, 'SupportAccessStarted', 'The access token of a session as the member, until endsAt')
  @Errors(404, 409)
  start(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.sessions.start(caller, id, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.SUPPORT_ACCESS_END })
  @Answers(200, 'SupportAccessItem')
  @Errors(404, 409)
  end(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.sessions.end(caller, id, client);
  }
}
