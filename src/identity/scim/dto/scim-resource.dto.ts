import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_RESULTS } from '../scim-schema';

/** OpenAPI shapes of the SCIM service's answers (RFC 7643/7644); the bodies are application/scim+json. */

/** The `schemas` attribute: a few schema URNs. */
const SCHEMA_URNS = { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 100 } } as const;

export class ScimMetaDto {
  @ApiProperty({ maxLength: 50 }) resourceType!: string;
  @ApiPropertyOptional({ format: 'date-time' }) created?: string;
  @ApiPropertyOptional({ format: 'date-time' }) lastModified?: string;
  @ApiPropertyOptional({ maxLength: 2048 }) location?: string;
  @ApiPropertyOptional({ maxLength: 100, description: 'Weak ETag of the resource' }) version?: string;
}

class ScimNameDto {
  @ApiPropertyOptional({ maxLength: 201 }) formatted?: string;
  @ApiPropertyOptional({ maxLength: 100 }) givenName?: string;
  @ApiPropertyOptional({ maxLength: 100 }) familyName?: string;
}

class ScimEmailDto {
  @ApiProperty({ maxLength: 100 }) value!: string;
  @ApiPropertyOptional({ maxLength: 50 }) type?: string;
  @ApiPropertyOptional() primary?: boolean;
}

class ScimMemberDto {
  @ApiProperty({ maxLength: 64 }) value!: string;
  @ApiPropertyOptional({ maxLength: 201 }) display?: string;
  @ApiPropertyOptional({ maxLength: 2048 }) $ref?: string;
}

export class ScimUserDto {
  @ApiProperty(SCHEMA_URNS) schemas!: string[];
  @ApiProperty({ maxLength: 64 }) id!: string;
  @ApiPropertyOptional({ maxLength: 255 }) externalId?: string;
  @ApiPropertyOptional({ maxLength: 100, description: "The account's e-mail" }) userName?: string;
  @ApiPropertyOptional({ type: ScimNameDto }) name?: ScimNameDto;
  @ApiPropertyOptional({ maxLength: 201 }) displayName?: string;
  @ApiPropertyOptional({ maxLength: 100 }) title?: string;
  @ApiPropertyOptional() active?: boolean;
  @ApiPropertyOptional({ type: [ScimEmailDto], maxItems: 10 }) emails?: ScimEmailDto[];
  @ApiPropertyOptional({
    name: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    type: 'object',
    properties: { department: { type: 'string', maxLength: 100 } },
  })
  enterprise?: { department?: string };
  @ApiProperty({ type: ScimMetaDto }) meta!: ScimMetaDto;
}

export class ScimGroupDto {
  @ApiProperty(SCHEMA_URNS) schemas!: string[];
  @ApiProperty({ maxLength: 64 }) id!: string;
  @ApiPropertyOptional({ maxLength: 255 }) externalId?: string;
  @ApiPropertyOptional({ maxLength: 201 }) displayName?: string;
  @ApiPropertyOptional({ type: [ScimMemberDto], maxItems: 10_000 }) members?: ScimMemberDto[];
  @ApiProperty({ type: ScimMetaDto }) meta!: ScimMetaDto;
}

export class ScimListDto {
  @ApiProperty(SCHEMA_URNS) schemas!: string[];
  @ApiProperty() totalResults!: number;
  @ApiProperty() startIndex!: number;
  @ApiProperty() itemsPerPage!: number;
  @ApiProperty({ type: 'array', maxItems: MAX_RESULTS, items: { type: 'object', additionalProperties: true } })
  Resources!: Array<Record<string, unknown>>;
}

/** A discovery document (ServiceProviderConfig, a ResourceType, a Schema). */
export class ScimDocumentDto {
  @ApiProperty(SCHEMA_URNS) schemas!: string[];
  @ApiPropertyOptional({ type: ScimMetaDto }) meta?: ScimMetaDto;
}

/** RFC 7644 §3.12's error, beside the error body's fields (docs/product-rules.md §3). */
export class ScimErrorDto {
  @ApiProperty({ ...SCHEMA_URNS, example: ['urn:ietf:params:scim:api:messages:2.0:Error'] }) schemas!: string[];
  @ApiProperty({ example: '409', pattern: '^[1-5][0-9][0-9]$' }) status!: string;
  @ApiPropertyOptional({
    enum: ['uniqueness', 'invalidFilter', 'invalidPath', 'invalidSyntax', 'invalidValue', 'mutability', 'noTarget'],
  })
  scimType?: string;
  @ApiProperty({ maxLength: 1000 }) detail!: string;
  @ApiProperty({ example: false }) success!: boolean;
  @ApiProperty() statusCode!: number;
  @ApiProperty({ maxLength: 50 }) code!: string;
  @ApiProperty({ maxLength: 1000 }) message!: string;
}
