import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ErrorResponse } from '../../platform/web/error-response.dto';
import { Client, RequestContext } from '../../platform/web/request-context';
import { PASSKEY_RATE_LIMITS } from '../passkeys';
import { ALL_ROLES } from '../../shared/roles';
import { StepUpDto, StepUpResponse } from './dto/step-up.dto';
import { StepUpService } from './step-up.service';

/**
 * Access: every role, signed in, on the caller's own session and account only (no id in the path); open to an
 * account that must still enrol in MFA (its passkey removal is sensitive too). Guesses are counted by the sign-in
 * throttle, per account and address. A step-up at the identity provider starts at POST /auth/step-up/sso
 * (sso-step-up.controller.ts), where the caller's connection is known.
 */
@ApiTags('auth')
@Controller('auth/step-up')
export class StepUpController {
  constructor(private readonly stepUps: StepUpService) {}

  @Post()
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, mfaPending: true, supportSession: 'refused' })
  @ApiOkResponse({ type: StepUpResponse })
  @ApiBadRequestResponse({ description: 'Not exactly one proof, or a malformed one', type: ErrorResponse })
  @ApiUnauthorizedResponse({
    description: 'The proof was wrong (INVALID_CREDENTIALS, INVALID_MFA_TOKEN, INVALID_RECOVERY_CODE, PASSKEY_INVALID)',
    type: ErrorResponse,
  })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_ATTEMPTS: locked after repeated failures', type: ErrorResponse })
  stepUp(@CurrentUser() caller: AuthUser, @Body() dto: StepUpDto, @Client() client: RequestContext) {
    return this.stepUps.stepUp(caller, dto, client);
  }

  @Post('passkey-options')
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, mfaPending: true, supportSession: 'refused' })
  @Throttle({ default: { limit: PASSKEY_RATE_LIMITS.OPTIONS, ttl: 60_000 } })
  @ApiOkResponse({ description: 'Options for navigator.credentials.get, naming the caller’s passkeys' })
  @ApiBadRequestResponse({ description: 'The account has no passkey', type: ErrorResponse })
  passkeyOptions(@CurrentUser() caller: AuthUser) {
    return this.stepUps.passkeyOptions(caller);
  }
}
