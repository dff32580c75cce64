import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { Answers } from '../../platform/openapi/decorators';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { MyAppsService } from './my-apps.service';

/** Access: every signed-in member, about their own applications only (My Security, "Applications with access"). */
@ApiTags('openid provider')
@Controller('api/me/apps')
export class MyAppsController {
  constructor(private readonly apps: MyAppsService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  @Answers(200, ['MyOidcApp'])
  list(@CurrentUser() caller: AuthUser) {
    return this.apps.list(caller);
  }

  @Delete(':clientId')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, supportSession: 'refused' })
  @Answers(200, 'SuccessOnly')
  withdraw(@CurrentUser() caller: AuthUser, @Param('clientId') clientId: string, @Client() client: RequestContext) {
    return this.apps.withdraw(caller, clientId, client);
  }
}
