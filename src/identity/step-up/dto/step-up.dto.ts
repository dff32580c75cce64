import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { AuthenticationCredentialDto } from '../../passkeys';
import { RECOVERY_CODE_INPUT, RECOVERY_MESSAGES } from '../../../shared/identity/mfa-recovery';
import { LIMITS } from '../../../shared/limits';
import { MFA_CODE_PATTERN, VALIDATION_MESSAGES as V } from '../../../shared/validation';
import type { StepUpRequest, StepUpResult } from '../../../shared/api-types';

/** POST /auth/step-up: exactly one proof (docs/product-rules.md §7). */
export class StepUpDto implements StepUpRequest {
  @ApiPropertyOptional({ description: "The account's password" })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.PASSWORD_MAX, { message: V.PASSWORD_TOO_LONG })
  password?: string;

  @ApiPropertyOptional({ description: 'A current code from the authenticator app' })
  @IsOptional()
  @Matches(MFA_CODE_PATTERN, { message: V.MFA_CODE_FORMAT })
  mfaToken?: string;

  @ApiPropertyOptional({ description: 'An unused recovery code (it is used up)' })
  @IsOptional()
  @IsString()
  @Matches(RECOVERY_CODE_INPUT, { message: RECOVERY_MESSAGES.RECOVERY_CODE_FORMAT })
  recoveryCode?: string;

  @ApiPropertyOptional({ description: 'A passkey assertion to a challenge of POST /auth/step-up/passkey-options' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AuthenticationCredentialDto)
  @IsObject()
  passkey?: AuthenticationCredentialDto;
}

export class StepUpResponse implements StepUpResult {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ description: 'Until when sensitive calls pass (ISO 8601)', example: '2026-01-01T12:05:00.000Z' })
  stepUpUntil!: string;
}

/** POST /auth/step-up/sso: where to come back to afterwards. */
export class SsoStepUpDto {
  @ApiPropertyOptional({ description: 'A path of this site to come back to (anything else: the root)' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  returnTo?: string;
}

export class SsoStepUpResponse {
  @ApiProperty({
    description: "Where the browser goes to sign in again at the account's identity provider",
    example: '/auth/sso?stepUp=…',
  })
  url!: string;
}
