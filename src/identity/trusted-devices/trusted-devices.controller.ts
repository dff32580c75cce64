import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { ALL_ROLES } from '../../shared/roles';
import { TrustedDevicesService } from './trusted-devices.service';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: every role, on the caller's own trusted devices only; another user's device id is a 404
 * and changes nothing, whoever asks (administrators revoke them by "Disable User MFA").
 */
@ApiTags('mfa')
@Controller('mfa/trusted-devices')
export class TrustedDevicesController {
  constructor(private readonly devices: TrustedDevicesService) {}

  @Answers(200, ['TrustedDeviceItem'])
  @Get()
  @Access({ roles: ALL_ROLES })
  list(@CurrentUser() user: AuthUser) {
    return this.devices.list(user.id);
  }

  @Answers(200, 'SuccessOnly')
  @Delete(':id')
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, supportSession: 'refused' })
  revoke(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.devices.revoke(user, id, client);
  }

  @Answers(200, 'TrustedDevicesRevoked')
  @Delete()
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, supportSession: 'refused' })
  revokeAll(@CurrentUser() user: AuthUser, @Client() client: RequestContext) {
    return this.devices.revokeAll(user, client);
  }
}
