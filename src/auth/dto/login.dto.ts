import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
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
}
