import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenAPI shapes of the SCIM service's answers (RFC 7643/7644); the bodies are application/scim+json. */

export class ScimMetaDto {
  @ApiProperty() resourceType!: string;
  @ApiPropertyOptional({ format: 'date-time' }) created?: string;
  @ApiPropertyOptional({ format: 'date-time' }) lastModified?: string;
  @ApiPropertyOptional() location?: string;
  @ApiPropertyOptional({ description: 'Weak ETag of the resource' }) version?: string;
}

class ScimNameDto {
  @ApiPropertyOptional() formatted?: string;
  @ApiPropertyOptional() givenName?: string;
  @ApiPropertyOptional() familyName?: string;
}

class ScimEmailDto {
  @ApiProperty() value!: string;
  @ApiPropertyOptional() type?: string;
  @ApiPropertyOptional() primary?: boolean;
}

class ScimMemberDto {
  @ApiProperty() value!: string;
  @ApiPropertyOptional() display?: string;
  @ApiPropertyOptional() $ref?: string;
}

export class ScimUserDto {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty() id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional({ description: "The account's e-mail" }) userName?: string;
  @ApiPropertyOptional({ type: ScimNameDto }) name?: ScimNameDto;
  @ApiPropertyOptional() displayName?: string;
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() active?: boolean;
  @ApiPropertyOptional({ type: [ScimEmailDto] }) emails?: ScimEmailDto[];
  @ApiPropertyOptional({
    name: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    type: 'object',
    properties: { department: { type: 'string' } },
  })
  enterprise?: { department?: string };
  @ApiProperty({ type: ScimMetaDto }) meta!: ScimMetaDto;
}

export class ScimGroupDto {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty() id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional() displayName?: string;
  @ApiPropertyOptional({ type: [ScimMemberDto] }) members?: ScimMemberDto[];
  @ApiProperty({ type: ScimMetaDto }) meta!: ScimMetaDto;
}

export class ScimListDto {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty() totalResults!: number;
  @ApiProperty() startIndex!: number;
  @ApiProperty() itemsPerPage!: number;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  Resources!: Array<Record<string, unknown>>;
}

/** A discovery document (ServiceProviderConfig, a ResourceType, a Schema). */
export class ScimDocumentDto {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiPropertyOptional({ type: ScimMetaDto }) meta?: ScimMetaDto;
}

/** RFC 7644 §3.12's error, beside CONTRACT 3's fields. */
export class ScimErrorDto {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:api:messages:2.0:Error'] }) schemas!: string[];
  @ApiProperty({ example: '409' }) status!: string;
  @ApiPropertyOptional({
    enum: ['uniqueness', 'invalidFilter', 'invalidSyntax', 'invalidValue', 'mutability', 'noTarget'],
  })
  scimType?: string;
  @ApiProperty() detail!: string;
  @ApiProperty({ example: false }) success!: boolean;
  @ApiProperty() statusCode!: number;
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
}
