import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { trim } from '../../../platform/web/transforms';
import { PASSKEY_LIMITS } from '../../../shared/identity/passkeys';

const B64URL = /^[A-Za-z0-9_-]*$/;
const b64 = (field: string) => ({ message: `${field} must be base64url.` });
/** A base64url string of at most `max` characters (the decorators in the order a stack of them would apply). */
const Base64Url = (field: string, max: number) =>
  applyDecorators(Matches(B64URL, b64(field)), MaxLength(max), IsString());

/** The `response` part of a registration answer (navigator.credentials.create, as @simplewebauthn/browser encodes it). */
class AttestationResponseDto {
  @Base64Url('clientDataJSON', PASSKEY_LIMITS.CLIENT_DATA_MAX)
  clientDataJSON!: string;

  @Base64Url('attestationObject', PASSKEY_LIMITS.BLOB_MAX)
  attestationObject!: string;

  @IsOptional()
  @Base64Url('authenticatorData', PASSKEY_LIMITS.BLOB_MAX)
  authenticatorData?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(20, { each: true })
  transports?: string[];

  @IsOptional()
  @IsInt()
  publicKeyAlgorithm?: number;

  @IsOptional()
  @Base64Url('publicKey', PASSKEY_LIMITS.BLOB_MAX)
  publicKey?: string;
}

/** The `response` part of an authentication answer (navigator.credentials.get). */
class AssertionResponseDto {
  @Base64Url('clientDataJSON', PASSKEY_LIMITS.CLIENT_DATA_MAX)
  clientDataJSON!: string;

  @Base64Url('authenticatorData', PASSKEY_LIMITS.BLOB_MAX)
  authenticatorData!: string;

  @Base64Url('signature', PASSKEY_LIMITS.BLOB_MAX)
  signature!: string;

  @IsOptional()
  @Base64Url('userHandle', 200)
  userHandle?: string;
}

abstract class CredentialDto {
  @IsString()
  @Length(1, PASSKEY_LIMITS.CREDENTIAL_ID_MAX)
  @Matches(B64URL, b64('id'))
  id!: string;

  @IsString()
  @Length(1, PASSKEY_LIMITS.CREDENTIAL_ID_MAX)
  @Matches(B64URL, b64('rawId'))
  rawId!: string;

  @IsIn(['public-key'], { message: "type must be 'public-key'." })
  type!: 'public-key';

  @IsObject()
  clientExtensionResults!: Record<string, unknown>;

  @IsOptional()
  @IsIn(['platform', 'cross-platform'])
  authenticatorAttachment?: 'platform' | 'cross-platform';
}

export class RegistrationCredentialDto extends CredentialDto {
  @ValidateNested()
  @Type(() => AttestationResponseDto)
  @IsObject()
  response!: AttestationResponseDto;
}

export class AuthenticationCredentialDto extends CredentialDto {
  @ValidateNested()
  @Type(() => AssertionResponseDto)
  @IsObject()
  response!: AssertionResponseDto;
}

/** PATCH /mfa/passkeys/:id */
export class RenamePasskeyDto {
  @ApiProperty({ example: 'Work laptop' })
  @Transform(trim)
  @IsString()
  @Length(1, PASSKEY_LIMITS.NAME_MAX, { message: `Passkey name must be 1 to ${PASSKEY_LIMITS.NAME_MAX} characters.` })
  name!: string;
}

/** POST /mfa/passkeys: the name the user gives the passkey (as a rename takes it), and the browser's registration answer. */
export class RegisterPasskeyDto extends RenamePasskeyDto {
  @ApiProperty({
    description: 'The registration response of navigator.credentials.create, as @simplewebauthn/browser encodes it',
  })
  @ValidateNested()
  @Type(() => RegistrationCredentialDto)
  @IsObject()
  response!: RegistrationCredentialDto;
}
