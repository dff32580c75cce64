import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { AuthUser } from '../common/auth-user';
import { AllowMfaPending, Public, Roles } from '../common/decorators/access.decorators';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import { Client, RequestContext } from '../common/request-context';
import { TokenService } from '../credentials/token.service';
import { CAPABILITY_ROLES } from '../shared/roles';
import { MfaTokenDto } from './dto/mfa-token.dto';
import { MfaService } from './mfa.service';
import { Answers, Credentials } from '../openapi/decorators';

/**
 * Access: email-mfa is bound to a login's MFA challenge token; enable, verify and disable act on the
 * caller's own account, for every role, and stay open to an account that must still enrol.
 */
@ApiTags('mfa')
@ApiBearerAuth()
@Controller('mfa')
export class MfaController {
  constructor(
    private readonly mfa: MfaService,
    private readonly tokens: TokenService,
  ) {}

  @Answers(200, 'SuccessMessage')
  @Credentials(['challenge'])
  @Public()
  @Throttle({ default: { limit: 5, ttl: 60_000 } })
  @Post('email-mfa')
  @HttpCode(200)
  emailCode(@Headers('authorization') authorization: string | undefined, @Client() client: RequestContext) {
    return this.mfa.sendEmailCode(this.tokens.verifyChallenge(authorization, 'mfa'), client);
  }

  @Answers(200, 'MfaEnableResponse')
  @Post('enable')
  @HttpCode(200)
  @Roles(CAPABILITY_ROLES.SIGNED_IN)
  @AllowMfaPending()
  enable(@CurrentUser() user: AuthUser) {
    return this.mfa.startEnrolment(user.id);
  }

  @Answers(200, 'MfaVerifyResponse')
  @Post('verify')
  @HttpCode(200)
  @Roles(CAPABILITY_ROLES.SIGNED_IN)
  @AllowMfaPending()
  verify(@CurrentUser() user: AuthUser, @Body() dto: MfaTokenDto, @Client() client: RequestContext) {
    return this.mfa.completeEnrolment(user.id, dto.token, client);
  }

  @Answers(200, 'SuccessOnly')
  @Post('disable')
  @HttpCode(200)
  @Roles(CAPABILITY_ROLES.SIGNED_IN)
  @AllowMfaPending()
  disable(@CurrentUser() user: AuthUser, @Body() dto: MfaTokenDto, @Client() client: RequestContext) {
    return this.mfa.disableOwn(user.id, dto.token, client);
  }
}
