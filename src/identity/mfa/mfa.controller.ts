import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentChallenge, CurrentUser, SignInChallenge } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { MfaTokenDto } from './dto/mfa-token.dto';
import { MfaService } from './mfa.service';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: email-mfa is bound to a login's MFA challenge token; enable, verify and disable act on the
 * caller's own account, for every role, and stay open to an account that must still enrol. Starting an enrolment
 * needs a recent proof of identity (docs/product-rules.md §7), as adding a passkey does; switching MFA off takes a
 * current code.
 */
@ApiTags('mfa')
@Controller('mfa')
export class MfaController {
  constructor(private readonly mfa: MfaService) {}

  @Answers(200, 'SuccessMessage')
  @Access.challenge('mfa')
  @Throttle({ default: { limit: 5, ttl: 60_000 } })
  @Post('email-mfa')
  @HttpCode(200)
  emailCode(@CurrentChallenge() challenge: SignInChallenge, @Client() client: RequestContext) {
    return this.mfa.sendEmailCode(challenge.userId(), client);
  }

  @Answers(200, 'MfaEnableResponse')
  @Post('enable')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, mfaPending: true, stepUp: true })
  enable(@CurrentUser() user: AuthUser) {
    return this.mfa.startEnrolment(user.id);
  }

  @Answers(200, 'MfaVerifyResponse')
  @Post('verify')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, mfaPending: true, supportSession: 'refused' })
  verify(@CurrentUser() user: AuthUser, @Body() dto: MfaTokenDto, @Client() client: RequestContext) {
    return this.mfa.completeEnrolment(user.id, dto.token, client);
  }

  @Answers(200, 'SuccessOnly')
  @Post('disable')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, mfaPending: true, supportSession: 'refused' })
  disable(@CurrentUser() user: AuthUser, @Body() dto: MfaTokenDto, @Client() client: RequestContext) {
    return this.mfa.disableOwn(user.id, dto.token, client);
  }
}
