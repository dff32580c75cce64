import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { OmitOrValid, WholeNumberField } from '../../../../platform/web/dto-validation';
import { SSO_DEFAULT_ROLES, SSO_LIMITS as L, SSO_PROTOCOLS, SsoProtocol } from '../../../../shared/identity/sso';

/** What both protocols share, and the only fields a change may leave out. */
class SsoConnectionFields {
  @ApiPropertyOptional({ maxLength: L.NAME_MAX })
  @OmitOrValid()
  @IsString({ message: 'name must be text.' })
  @IsNotEmpty({ message: 'Enter a name.' })
  @MaxLength(L.NAME_MAX, { message: `name must be at most ${L.NAME_MAX} characters.` })
  name?: string;

  @ApiPropertyOptional()
  @OmitOrValid()
  @IsBoolean({ message: 'enabled must be true or false.' })
  enabled?: boolean;

  @ApiPropertyOptional({ description: 'Create unknown accounts of verified domains at their first login' })
  @OmitOrValid()
  @IsBoolean({ message: 'jitProvisioning must be true or false.' })
  jitProvisioning?: boolean;

  @ApiPropertyOptional({ enum: SSO_DEFAULT_ROLES, nullable: true })
  @IsOptional()
  @IsIn(SSO_DEFAULT_ROLES, { message: 'defaultRoleId must be one of the roles site admins may assign.' })
  defaultRoleId?: number | null;

  @ApiPropertyOptional({ description: 'OIDC: the issuer URL (discovery at /.well-known/openid-configuration)' })
  @OmitOrValid()
  @IsString({ message: 'issuer must be text.' })
  @IsNotEmpty({ message: 'Enter the issuer URL.' })
  @MaxLength(L.ISSUER_MAX, { message: `issuer must be at most ${L.ISSUER_MAX} characters.` })
  issuer?: string;

  @ApiPropertyOptional()
  @OmitOrValid()
  @IsString({ message: 'clientId must be text.' })
  @IsNotEmpty({ message: 'Enter the client id.' })
  @MaxLength(L.CLIENT_ID_MAX, { message: `clientId must be at most ${L.CLIENT_ID_MAX} characters.` })
  clientId?: string;

  @ApiPropertyOptional({ writeOnly: true })
  @OmitOrValid()
  @IsString({ message: 'clientSecret must be text.' })
  @IsNotEmpty({ message: 'Enter the client secret.' })
  @MaxLength(L.CLIENT_SECRET_MAX, { message: `clientSecret must be at most ${L.CLIENT_SECRET_MAX} characters.` })
  clientSecret?: string;

  @ApiPropertyOptional({ description: "SAML: the identity provider's metadata XML" })
  @OmitOrValid()
  @IsString({ message: 'metadataXml must be text.' })
  @IsNotEmpty({ message: 'Paste the metadata XML.' })
  @MaxLength(L.METADATA_MAX, { message: `metadataXml must be at most ${L.METADATA_MAX} characters.` })
  metadataXml?: string;
}

/** POST /api/sso-connections */
export class CreateSsoConnectionDto extends SsoConnectionFields {
  @ApiProperty({ enum: SSO_PROTOCOLS })
  @IsIn(SSO_PROTOCOLS, { message: "protocol must be 'oidc' or 'saml'." })
  protocol!: SsoProtocol;

  @ApiProperty({ maxLength: L.NAME_MAX })
  @IsString({ message: 'name must be text.' })
  @IsNotEmpty({ message: 'Enter a name.' })
  @MaxLength(L.NAME_MAX, { message: `name must be at most ${L.NAME_MAX} characters.` })
  declare name: string;
}

/** PUT /api/sso-connections/{id}: the fields sent change; the protocol stays. */
export class UpdateSsoConnectionDto extends SsoConnectionFields {}

/** ?organisationId= (E-Support only: the organisation worked on). */
export class SsoOrganisationQueryDto {
  @WholeNumberField('organisationId', { description: 'E-Support only: the organisation worked on' })
  organisationId?: number;
}
