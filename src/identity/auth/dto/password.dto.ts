import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LIMITS } from '../../../shared/limits';
import { trim } from '../../../platform/web/transforms';
import { NewPassword } from '../../../platform/web/dto-validation';
import { MFA_CODE_PATTERN, VALIDATION_MESSAGES as V } from '../../../shared/validation';
import { ChangePasswordRequest, ForgotPasswordRequest, ResetPasswordRequest } from '../../../shared/api-types';

export class ChangePasswordDto implements ChangePasswordRequest {
  @ApiProperty()
  @IsString()
  @IsNotEmpty({ message: V.FIELDS_EMPTY })
  @MaxLength(LIMITS.PASSWORD_MAX, { message: V.NEW_PASSWORD_TOO_LONG })
  currentPassword!: string;

  @ApiProperty()
  @NewPassword()
  newPassword!: string;
}

export class ForgotPasswordDto implements ForgotPasswordRequest {
  @ApiProperty()
  @Transform(trim)
  @IsEmail({}, { message: V.EMAIL_INVALID })
  @MaxLength(LIMITS.EMAIL_MAX, { message: V.EMAIL_TOO_LONG })
  username!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(MFA_CODE_PATTERN, { message: V.MFA_CODE_FORMAT })
  mfaCode?: string;
}

export class ResetPasswordDto implements ResetPasswordRequest {
  @ApiProperty()
  @IsString()
  @IsNotEmpty({ message: V.RESET_TOKEN_MISSING })
  @MaxLength(200)
  token!: string;

  @ApiProperty()
  @NewPassword()
  password!: string;
}
