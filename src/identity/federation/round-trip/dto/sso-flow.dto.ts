import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS } from '../../../../shared/limits';
import { RETURN_PATH_MAX } from '../../../../shared/identity/return-path';
import { BODY_LIMITS } from '../../../../platform/web/middleware/body-parsing';

/** POST /auth/sso/discover */
export class DiscoverDto {
  @ApiProperty()
  @IsString({ message: 'email must be text.' })
  @MaxLength(LIMITS.EMAIL_MAX, { message: `email must be at most ${LIMITS.EMAIL_MAX} characters.` })
  email!: string;
}

/** GET /auth/sso/{connectionId}?login_hint= */
export class SsoStartQueryDto {
  @ApiPropertyOptional({ description: 'The e-mail the person typed, passed on to the provider' })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.EMAIL_MAX)
  login_hint?: string;

  @ApiPropertyOptional({ enum: ['login'], description: 'Authenticate again at the provider, whatever its session' })
  @IsOptional()
  @IsIn(['login'])
  prompt?: 'login';

  @ApiPropertyOptional({
    description:
      "Where a sign-in ends: a path of the OpenID provider's sign-in (/oidc/…) on this origin; any other is ignored",
  })
  @IsOptional()
  @IsString()
  @MaxLength(RETURN_PATH_MAX)
  returnTo?: string;

  @ApiPropertyOptional({
    description: 'The ticket of POST /auth/step-up/sso: this round trip re-authenticates a session',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  stepUp?: string;

  @ApiPropertyOptional({
    description: "The ticket of POST /api/sso-connections/{id}/test: an administrator's test of the connection",
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  test?: string;
}

/** POST /auth/saml/{id}/acs (form), the IdP's HTTP-POST binding. */
export class SamlPostDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  // The form's whole body is held to the body limit; the field cannot be longer.
  @MaxLength(BODY_LIMITS.MAX_BYTES)
  SAMLResponse!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(80)
  RelayState?: string;
}

/** POST /auth/sso/{id}/backchannel-logout (form), OpenID Back-Channel Logout 1.0. */
export class BackChannelLogoutDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(8000)
  logout_token!: string;
}
