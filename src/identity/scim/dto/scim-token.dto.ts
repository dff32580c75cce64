import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { trim } from '../../../platform/web/transforms';
import { NewScimToken, SCIM_MESSAGES, SCIM_TOKEN_NAME_MAX, ScimTokenItem } from '../../../shared/identity/scim';

/** POST /api/scim-tokens */
export class CreateScimTokenDto {
  @ApiProperty({ maxLength: SCIM_TOKEN_NAME_MAX, example: 'Microsoft Entra ID' })
  @Transform(trim)
  @IsString({ message: SCIM_MESSAGES.TOKEN_NAME_REQUIRED })
  @IsNotEmpty({ message: SCIM_MESSAGES.TOKEN_NAME_REQUIRED })
  @MaxLength(SCIM_TOKEN_NAME_MAX, { message: SCIM_MESSAGES.TOKEN_NAME_TOO_LONG })
  name!: string;
}

export class ScimTokenItemDto implements ScimTokenItem {
  @ApiProperty() id!: number;
  @ApiProperty({ maxLength: SCIM_TOKEN_NAME_MAX }) name!: string;
  @ApiProperty() organisationId!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, nullable: true }) createdBy!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) lastUsedAt!: string | null;
}

export class NewScimTokenDto implements NewScimToken {
  @ApiProperty() id!: number;
  @ApiProperty({ maxLength: SCIM_TOKEN_NAME_MAX }) name!: string;
  @ApiProperty({
    maxLength: 100,
    description: 'The bearer token for the directory: shown this once, stored only as its hash',
  })
  token!: string;
}

/** the error body (docs/product-rules.md §3). */
export class ErrorBodyDto {
  @ApiProperty({ example: false }) success!: boolean;
  @ApiProperty() statusCode!: number;
  @ApiProperty({ maxLength: 50 }) code!: string;
  @ApiProperty({ maxLength: 1000 }) message!: string;
}

export class RevokedDto {
  @ApiProperty({ example: true }) success!: boolean;
}
