import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
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

/** Decorators applied as if written one above the other in this order (the lowest first, as TypeScript does). */
const stacked = (...decorators: PropertyDecorator[]): PropertyDecorator =>
  applyDecorators(...[...decorators].reverse());

/** An application's name: trimmed, not empty, bounded. */
const ClientName = (): PropertyDecorator =>
  stacked(
    Transform(trim),
    IsString({ message: OIDC_CLIENT_MESSAGES.NAME_REQUIRED }),
    IsNotEmpty({ message: OIDC_CLIENT_MESSAGES.NAME_REQUIRED }),
    MaxLength(OIDC_CLIENT_NAME_MAX, { message: OIDC_CLIENT_MESSAGES.NAME_TOO_LONG }),
  );

/** The items of a list of redirect URIs (sign-in or post-logout): a bounded number of unique, bounded strings. */
const RedirectUriItems = (): PropertyDecorator =>
  stacked(
    ArrayMaxSize(OIDC_REDIRECT_URIS_MAX, { message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_TOO_MANY }),
    ArrayUnique({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID }),
    IsString({ each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID }),
    MaxLength(OIDC_REDIRECT_URI_MAX, { each: true, message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID }),
  );

const REDIRECT_URIS_DOC: ApiPropertyOptions = { type: [String], maxItems: OIDC_REDIRECT_URIS_MAX, uniqueItems: true };

/** The sign-in redirect URIs: a list of at least one. */
const RedirectUris = (): PropertyDecorator =>
  stacked(
    IsArray({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_REQUIRED }),
    ArrayNotEmpty({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URIS_REQUIRED }),
    RedirectUriItems(),
  );

/** The post-logout redirect URIs: optional, possibly empty. */
const PostLogoutRedirectUris = (): PropertyDecorator =>
  stacked(
    ApiPropertyOptional(REDIRECT_URIS_DOC),
    IsOptional(),
    IsArray({ message: OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID }),
    RedirectUriItems(),
  );

/** The back-channel logout URI: optional, null to clear. */
const BackchannelLogoutUri = (): PropertyDecorator =>
  stacked(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: OIDC_REDIRECT_URI_MAX }),
    IsOptional(),
    ValidateIf((_o, v) => v !== null),
    IsString({ message: OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID }),
    MaxLength(OIDC_REDIRECT_URI_MAX, { message: OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID }),
  );

/** POST /api/oidc-clients */
export class CreateOidcClientDto implements CreateOidcClientRequest {
  @ApiProperty({ maxLength: OIDC_CLIENT_NAME_MAX, example: 'Tax manager' })
  @ClientName()
  name!: string;

  @ApiProperty({ enum: OIDC_CLIENT_TYPES })
  @IsIn(OIDC_CLIENT_TYPES, { message: OIDC_CLIENT_MESSAGES.TYPE_INVALID })
  type!: OidcClientType;

  @ApiProperty(REDIRECT_URIS_DOC)
  @RedirectUris()
  redirectUris!: string[];

  @PostLogoutRedirectUris()
  postLogoutRedirectUris?: string[];

  @BackchannelLogoutUri()
  backchannelLogoutUri?: string | null;
}

/** PUT /api/oidc-clients/{id} */
export class UpdateOidcClientDto implements UpdateOidcClientRequest {
  @ApiPropertyOptional({ maxLength: OIDC_CLIENT_NAME_MAX })
  @IsOptional()
  @ClientName()
  name?: string;

  @ApiPropertyOptional(REDIRECT_URIS_DOC)
  @IsOptional()
  @RedirectUris()
  redirectUris?: string[];

  @PostLogoutRedirectUris()
  postLogoutRedirectUris?: string[];

  @BackchannelLogoutUri()
  backchannelLogoutUri?: string | null;
}
