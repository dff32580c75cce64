import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LIMITS } from '../../shared/limits';
import { trim } from '../../common/transforms';
import { NewPassword } from '../../common/validation';

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty({ message: 'Input fields cannot be empty' })
  @MaxLength(LIMITS.PASSWORD_MAX, { message: 'Password must be less than or equal to 50 characters.' })
  currentPassword!: string;

  @ApiProperty()
  @NewPassword()
  newPassword!: string;
}

export class ForgotPasswordDto {
  @ApiProperty()
  @Transform(trim)
  @IsEmail({}, { message: 'Entered email is not a valid email' })
  @MaxLength(LIMITS.EMAIL_MAX, { message: 'Entered email must be less than or equal to 100 characters.' })
  username!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'MFA must contain exactly 6 digits' })
  mfaCode?: string;
}

export class ResetPasswordDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty({ message: 'Cannot extract token. Please double check if your URL is correct.' })
  @MaxLength(200)
  token!: string;

  @ApiProperty()
  @NewPassword()
  password!: string;
}
