import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { RECOVERY_CODE_INPUT, RECOVERY_MESSAGES } from '../../shared/mfa-recovery';
import { trim } from '../../common/transforms';
import { LIMITS } from '../../shared/limits';
import { MFA_CODE_PATTERN, VALIDATION_MESSAGES as V } from '../../shared/validation';
import { LoginRequest } from '../../shared/api-types';


export class LoginDto implements LoginRequest {
  @ApiProperty({ example: 'jane@example.com' })
  @Transform(trim)
  @IsEmail({}, { message: V.EMAIL_INVALID })
  @MaxLength(LIMITS.EMAIL_MAX, { message: V.EMAIL_TOO_LONG })
  username!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(LIMITS.PASSWORD_MAX, { message: V.PASSWORD_TOO_LONG })
  password!: string;

  @ApiProperty({ description: 'The terms and conditions were accepted' })
  @IsBoolean()
  acceptToS!: boolean;

  @ApiPropertyOptional({ description: 'TOTP or e-mailed code, with the challenge token as bearer' })
  @IsOptional()
  @Matches(MFA_CODE_PATTERN, { message: V.MFA_CODE_FORMAT })
  mfaToken?: string;

  // Issue 14: recovery codes and trusted devices.
  @ApiPropertyOptional({ description: 'A recovery code in place of mfaToken, with the challenge token as bearer' })
  @IsOptional()
  @IsString()
  @Matches(RECOVERY_CODE_INPUT, { message: RECOVERY_MESSAGES.RECOVERY_CODE_FORMAT })
  recoveryCode?: string;

  @ApiPropertyOptional({ description: "Don't ask again on this device (with mfaToken or recoveryCode)" })
  @IsOptional()
  @IsBoolean()
  rememberDevice?: boolean;
}
