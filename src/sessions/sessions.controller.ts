import { Controller, Get, Param, ParseIntPipe } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth-user';
import { Roles } from '../common/decorators/access.decorators';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import { UsersService } from '../users/users.service';
import { Role } from '../shared/roles';
import { SessionsService } from './sessions.service';

/**
 * Access: a user's last login is read by those who open the user roles page (support, site admin,
 * administrator), within their organisation (support: any). Another organisation's user is a 404.
 */
@ApiTags('sessions')
@ApiBearerAuth()
@Controller('api/userLoginActivities')
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
  ) {}

  @Get(':userId')
  @Roles([Role.E_SUPPORT, Role.SITE_ADMIN, Role.ADMINISTRATOR])
  async lastLogin(@CurrentUser() caller: AuthUser, @Param('userId', ParseIntPipe) userId: number) {
    const user = await this.users.findAccessible(caller, userId);
    return { userId: user.id, loginDateTime: (await this.sessions.lastLogin(user.id))?.toISOString() ?? null };
  }
}
