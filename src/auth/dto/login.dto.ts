import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { RECOVERY_CODE_INPUT, RECOVERY_MESSAGES } from '../../shared/mfa-recovery';
import { trim } from '../../common/transforms';
import { LIMITS } from '../../shared/limits';


export class LoginDto {
  @ApiProperty({ example: 'jane@example.com' })
  @Transform(trim)
  @IsEmail({}, { message: 'Entered email is not a valid email' })
  @MaxLength(LIMITS.EMAIL_MAX, { message: 'Entered email must be less than or equal to 100 characters.' })
  username!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(LIMITS.PASSWORD_MAX, { message: 'Entered password must be less than or equal to 50 characters.' })
  password!: string;

  @ApiProperty({ description: 'The terms and conditions were accepted' })
  @IsBoolean()
  acceptToS!: boolean;

  @ApiPropertyOptional({ description: 'TOTP or e-mailed code, with the challenge token as bearer' })
  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'MFA must contain exactly 6 digits' })
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
