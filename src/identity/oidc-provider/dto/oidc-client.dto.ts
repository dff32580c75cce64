import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { trim } from '../../../platform/web/transforms';
import {
  CreateOidcClientRequest,
  OIDC_CLIENT_MESSAGES,
  OIDC_CLIENT_NAME_MAX,
  OIDC_CLIENT_TYPES,
  OIDC_REDIRECT_URI_MAX,
  OIDC_REDIRECT_URIS_MAX,
  OidcClientType,
  UpdateOidcClientRequest,
} from '../../../shared/identity/oidc-clients';

/** POST /api/oidc-clients */
export class CreateOidcClientDto implements CreateOidcClientRequest {
  @ApiProperty({ maxLength: OIDC_CLIENT_NAME_MAX, example: 'Tax manager' })
  @Transform(trim)
  @IsString({ message: OIDC_CLIENT_MESSAGES.NAME_REQUIRED })
  @IsNotEmpty({ message: OIDC_CLIENT_MESSAGES.NAME_REQUIRED })
  @MaxLength(OIDC_CLIENT_NAME_MAX, { message: OIDC_CLIENT_MESSAGES.NAME_TOO_LONG })
  name!: string;

  @ApiProperty({ enum: OIDC_CLIENT_TYPES })
  @IsIn(OIDC_CLIENT_TYPES, { message: OIDC_CLIENT_MESSAGES.TYPE_INVALID })
  type!: OidcClientType;

  @ApiProperty({ type: [String], maxItems: OIDC_REDIRECT_URIS_MAX, uniqueItems: true })
  @IsArray({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_REQUIRED })
  @ArrayNotEmpty({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_REQUIRED })
  @ArrayMaxSize(OIDC_REDIRECT_URIS_MAX, { message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_TOO_MANY })
  @ArrayUnique({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @IsString({ each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @MaxLength(OIDC_REDIRECT_URI_MAX, { each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  redirectUris!: string[];

  @ApiPropertyOptional({ type: [String], maxItems: OIDC_REDIRECT_URIS_MAX, uniqueItems: true })
  @IsOptional()
  @IsArray({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @ArrayMaxSize(OIDC_REDIRECT_URIS_MAX, { message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_TOO_MANY })
  @ArrayUnique({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @IsString({ each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @MaxLength(OIDC_REDIRECT_URI_MAX, { each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  postLogoutRedirectUris?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: OIDC_REDIRECT_URI_MAX })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString({ message: OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID })
  @MaxLength(OIDC_REDIRECT_URI_MAX, { message: OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID })
  backchannelLogoutUri?: string | null;
}

/** PUT /api/oidc-clients/{id} */
export class UpdateOidcClientDto implements UpdateOidcClientRequest {
  @ApiPropertyOptional({ maxLength: OIDC_CLIENT_NAME_MAX })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: OIDC_CLIENT_MESSAGES.NAME_REQUIRED })
  @IsNotEmpty({ message: OIDC_CLIENT_MESSAGES.NAME_REQUIRED })
  @MaxLength(OIDC_CLIENT_NAME_MAX, { message: OIDC_CLIENT_MESSAGES.NAME_TOO_LONG })
  name?: string;

  @ApiPropertyOptional({ type: [String], maxItems: OIDC_REDIRECT_URIS_MAX, uniqueItems: true })
  @IsOptional()
  @IsArray({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_REQUIRED })
  @ArrayNotEmpty({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_REQUIRED })
  @ArrayMaxSize(OIDC_REDIRECT_URIS_MAX, { message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_TOO_MANY })
  @ArrayUnique({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @IsString({ each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @MaxLength(OIDC_REDIRECT_URI_MAX, { each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  redirectUris?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: OIDC_REDIRECT_URIS_MAX, uniqueItems: true })
  @IsOptional()
  @IsArray({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @ArrayMaxSize(OIDC_REDIRECT_URIS_MAX, { message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_TOO_MANY })
  @ArrayUnique({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @IsString({ each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  @MaxLength(OIDC_REDIRECT_URI_MAX, { each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID })
  postLogoutRedirectUris?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: OIDC_REDIRECT_URI_MAX })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString({ message: OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID })
  @MaxLength(OIDC_REDIRECT_URI_MAX, { message: OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID })
  backchannelLogoutUri?: string | null;
}
