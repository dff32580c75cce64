import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth-user';
import { AllowMfaPending, Roles } from '../common/decorators/access.decorators';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import { ALL_ROLES } from '../shared/roles';
import { UsersService } from './users.service';

/** Access: each route names its roles; every query is confined to the caller's organisation (E-Support: all). */
@ApiTags('users')
@ApiBearerAuth()
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('current')
  @Roles(ALL_ROLES)
  @AllowMfaPending()
  current(@CurrentUser() user: AuthUser) {
    return this.users.current(user.id);
  }
}
