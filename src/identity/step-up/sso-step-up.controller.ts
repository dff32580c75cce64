import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ErrorResponse } from '../../platform/web/error-response.dto';
import { ALL_ROLES } from '../../shared/roles';
import { SsoStepUpDto, SsoStepUpResponse } from './dto/step-up.dto';
import { SsoStepUpRoundTrip } from './sso-step-up.service';

/**
 * Access: every role, signed in, for the caller's own session (no id in the path). A step-up of an account that
 * signs in through a provider happens at that provider (docs/product-rules.md §7): its organisation's connection, else the
 * deployment-wide one.
 */
@ApiTags('auth')
@Controller('auth/step-up')
export class SsoStepUpController {
  constructor(private readonly roundTrip: SsoStepUpRoundTrip) {}

  @Post('sso')
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, mfaPending: true, supportSession: 'refused' })
  @ApiOkResponse({ type: SsoStepUpResponse })
  @ApiBadRequestResponse({ description: 'SSO_UNAVAILABLE: corporate login is not configured', type: ErrorResponse })
  sso(@CurrentUser() caller: AuthUser, @Body() dto: SsoStepUpDto): Promise<{ url: string }> {
    return this.roundTrip.start(caller, dto.returnTo);
  }
}
