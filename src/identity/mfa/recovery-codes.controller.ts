import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { ALL_ROLES } from '../../shared/roles';
import { MfaTokenDto } from './dto/mfa-token.dto';
import { MfaService } from './mfa.service';
import { RecoveryCodesService } from './recovery-codes.service';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: every role, on the caller's own account only (no id in the path). Regenerating checks a
 * TOTP code, so it is rate limited like the other code checks.
 */
@ApiTags('mfa')
@Controller('mfa/recovery-codes')
export class RecoveryCodesController {
  constructor(
    private readonly mfa: MfaService,
    private readonly recoveryCodes: RecoveryCodesService,
  ) {}

  @Answers(200, 'RecoveryCodesStatus')
  @Get()
  @Access({ roles: ALL_ROLES })
  status(@CurrentUser() user: AuthUser) {
    return this.recoveryCodes.status(user.id);
  }

  @Answers(200, 'RecoveryCodesResponse')
  @Post()
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, supportSession: 'refused' })
  @Throttle({ default: { limit: 5, ttl: 60_000 } })
  regenerate(@CurrentUser() user: AuthUser, @Body() dto: MfaTokenDto, @Client() client: RequestContext) {
    return this.mfa.regenerateRecoveryCodes(user.id, dto.token, client);
  }
}
