import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { AuthenticationCredentialDto } from '../../passkeys';
import { RECOVERY_CODE_INPUT, RECOVERY_MESSAGES } from '../../../shared/identity/mfa-recovery';
import { trim } from '../../../platform/web/transforms';
import { LIMITS } from '../../../shared/limits';
import { MFA_CODE_PATTERN, VALIDATION_MESSAGES as V } from '../../../shared/validation';
import { LoginRequest } from '../../../shared/api-types';

export class LoginDto implements LoginRequest {
  @ApiProperty({ example: 'jane@example.com', description: 'Left out for a password-less sign-in with a passkey' })
  // Passkeys: a password-less sign-in sends only acceptToS and passkey.
  @ValidateIf((o: LoginDto) => !o.passkey || o.username !== undefined || o.password !== undefined)
  @Transform(trim)
  @IsEmail({}, { message: V.EMAIL_INVALID })
  @MaxLength(LIMITS.EMAIL_MAX, { message: V.EMAIL_TOO_LONG })
  username!: string;

  @ApiProperty()
  @ValidateIf((o: LoginDto) => !o.passkey || o.username !== undefined || o.password !== undefined)
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

  // Recovery codes and trusted devices.
  @ApiPropertyOptional({ description: 'A recovery code in place of mfaToken, with the challenge token as bearer' })
  @IsOptional()
  @IsString()
  @Matches(RECOVERY_CODE_INPUT, { message: RECOVERY_MESSAGES.RECOVERY_CODE_FORMAT })
  recoveryCode?: string;

  @ApiPropertyOptional({ description: "Don't ask again on this device (with mfaToken or recoveryCode)" })
  @IsOptional()
  @IsBoolean()
  rememberDevice?: boolean;

  /**
   * Passkeys: an authentication response (navigator.credentials.get, as @simplewebauthn/browser encodes
   * it) to a challenge of POST /auth/passkey/options. With username and password and the MFA challenge token: the
   * second factor in place of mfaToken. Alone: a password-less sign-in.
   */
  @ApiPropertyOptional({
    description: 'Passkey authentication response: second factor, or alone a password-less sign-in',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => AuthenticationCredentialDto)
  @IsObject()
  passkey?: AuthenticationCredentialDto;
}
