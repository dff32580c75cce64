import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { trim } from '../../../../platform/web/transforms';
import {
  API_KEY_MESSAGES,
  API_KEY_NAME_MAX,
  API_KEY_SCOPES,
  ApiKeyScope,
  CreateApiKeyRequest,
} from '../../../../shared/administration/api-keys';

/** POST /api/api-keys */
export class CreateApiKeyDto implements CreateApiKeyRequest {
  @ApiProperty({ maxLength: API_KEY_NAME_MAX, example: 'HR system' })
  @Transform(trim)
  @IsString({ message: API_KEY_MESSAGES.NAME_REQUIRED })
  @IsNotEmpty({ message: API_KEY_MESSAGES.NAME_REQUIRED })
  @MaxLength(API_KEY_NAME_MAX, { message: API_KEY_MESSAGES.NAME_TOO_LONG })
  name!: string;

  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true, maxItems: API_KEY_SCOPES.length, uniqueItems: true })
  @IsArray({ message: API_KEY_MESSAGES.SCOPES_REQUIRED })
  @ArrayNotEmpty({ message: API_KEY_MESSAGES.SCOPES_REQUIRED })
  @ArrayMaxSize(API_KEY_SCOPES.length, { message: API_KEY_MESSAGES.SCOPE_UNKNOWN })
  @ArrayUnique({ message: API_KEY_MESSAGES.SCOPE_UNKNOWN })
  @IsIn(API_KEY_SCOPES, { each: true, message: API_KEY_MESSAGES.SCOPE_UNKNOWN })
  scopes!: ApiKeyScope[];

  @ApiPropertyOptional({ format: 'date-time', maxLength: 40, description: 'In the future; left out, no expiry' })
  @IsOptional()
  @IsString({ message: API_KEY_MESSAGES.EXPIRY_INVALID })
  @MaxLength(40, { message: API_KEY_MESSAGES.EXPIRY_INVALID })
  @IsISO8601({ strict: true }, { message: API_KEY_MESSAGES.EXPIRY_INVALID })
  expiresAt?: string;
}
