import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { OrganisationSessions } from './organisation-sessions.service';
import { ForceLogoffDto } from './dto/force-logoff.dto';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: the live sessions of an organisation and force log-off are for site admin and administrator
 * (spec 001 §2.1 users/user-sessions), confined to their own organisation (another organisation's user
 * is a 404). A user's last login is read by those who open the user roles page (support, site admin,
 * administrator), within their organisation (support: any). Another organisation's user is a 404.
 */
@ApiTags('sessions')
@Controller('api/userLoginActivities')
export class SessionsController {
  constructor(private readonly sessions: OrganisationSessions) {}

  @Answers(200, 'UserSessionsResponse')
  // Declared before ':userId' so that the literal path wins.
  @Get('user-sessions')
  @Access({ roles: CAPABILITY_ROLES.USER_ADMIN })
  userSessions(@CurrentUser() caller: AuthUser) {
    return this.sessions.userSessions(caller);
  }

  @Answers(200, 'ForceLogoffResult')
  @Post('force-logoff')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.USER_ADMIN })
  forceLogoff(@CurrentUser() caller: AuthUser, @Body() dto: ForceLogoffDto, @Client() client: RequestContext) {
    return this.sessions.forceLogoff(caller, dto.userIds, client);
  }

  @Answers(200, 'LastLogin')
  @Get(':userId')
  @Access({ roles: CAPABILITY_ROLES.USER_DETAILS })
  lastLogin(@CurrentUser() caller: AuthUser, @Param('userId', ParseIntPipe) userId: number) {
    return this.sessions.lastLogin(caller, userId);
  }
}
