import { Body, Controller, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { UserIdDto } from '../users';
import { MfaAdminService } from './mfa-admin.service';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: disabling another user's MFA is for the writers of the user list, site admins and administrators
 * (spec 000 §6: "Only they see the actions column, open the roles page by double-click, and disable a user's
 * MFA"), within their organisation; another organisation's user is a 404. Nobody uses it on themselves
 * (their own MFA goes off with a code through POST /mfa/disable), and an administrator cannot act on a site admin.
 */
@ApiTags('mfa')
@Controller('api/mfa')
export class MfaAdminController {
  constructor(private readonly mfaAdmin: MfaAdminService) {}

  @Answers(200, 'SuccessResult')
  @Put('disableUserMfa')
  @Access({ roles: CAPABILITY_ROLES.USER_ADMIN, stepUp: true })
  disableUserMfa(@CurrentUser() caller: AuthUser, @Body() dto: UserIdDto, @Client() client: RequestContext) {
    return this.mfaAdmin.disableUserMfa(caller, dto.userId, client);
  }
}
