import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { trim } from '../../../platform/web/transforms';
import { NewPassword, WholeNumberField } from '../../../platform/web/dto-validation';
import {
  AcceptInvitationRequest,
  INVITATION_LIMITS as L,
  INVITATION_STATUSES,
  InvitationStatus,
  InviteRequest,
} from '../../../shared/administration/invitations';
import { LIMITS } from '../../../shared/limits';
import { Role } from '../../../shared/roles';
import { NAME_MAX, NO_NUL_PATTERN, profileFieldTooLong, VALIDATION_MESSAGES as V } from '../../../shared/validation';

const EXPIRY = { min: L.EXPIRES_IN_DAYS_MIN, max: L.EXPIRES_IN_DAYS_MAX };

/** ?organisationId= of the invitation routes: E-Support names the organisation it works on. */
export class InvitationOrganisationQueryDto {
  @WholeNumberField('organisationId', {
    description: 'E-Support only: the organisation to work on (default: the caller’s own)',
  })
  organisationId?: number;
}

/** POST /api/invitations */
export class InviteDto implements InviteRequest {
  @ApiProperty({ example: 'jane@example.com', maxLength: LIMITS.EMAIL_MAX })
  @IsString({ message: V.EMAIL_INVALID })
  @MaxLength(LIMITS.EMAIL_MAX + 50, { message: V.EMAIL_TOO_LONG })
  email!: string;

  @ApiProperty({ description: 'The main role (Role ids of GET /api/users/roles); Administrator is the admin flag' })
  @IsInt({ message: 'roleId must be a role id.' })
  @IsIn(Object.values(Role).filter((r) => typeof r === 'number'), { message: 'roleId must be a role id.' })
  roleId!: number;

  @ApiPropertyOptional({ description: 'Also the Administrator role (with the base role only)' })
  @IsOptional()
  @IsBoolean()
  admin?: boolean;

  @ApiPropertyOptional({ type: 'integer', minimum: EXPIRY.min, maximum: EXPIRY.max, default: 7 })
  @IsOptional()
  @IsInt({ message: `expiresInDays must be a whole number from ${EXPIRY.min} to ${EXPIRY.max}.` })
  @IsIn(Array.from({ length: EXPIRY.max }, (_, i) => i + 1), {
    message: `expiresInDays must be a whole number from ${EXPIRY.min} to ${EXPIRY.max}.`,
  })
  expiresInDays?: number;
}

/** POST /api/invitations/bulk?organisationId=&expiresInDays= (the body is the CSV file). */
export class BulkInviteQueryDto extends InvitationOrganisationQueryDto {
  @WholeNumberField('expiresInDays', { ...EXPIRY, default: L.EXPIRES_IN_DAYS_DEFAULT })
  expiresInDays?: number;
}

/** GET /api/invitations */
export class InvitationListQueryDto extends InvitationOrganisationQueryDto {
  @ApiPropertyOptional({ enum: INVITATION_STATUSES })
  @IsOptional()
  @IsIn(INVITATION_STATUSES, { message: `status must be one of ${INVITATION_STATUSES.join(', ')}.` })
  status?: InvitationStatus;

  @WholeNumberField('page', { max: LIMITS.PAGE_MAX, default: 1 })
  page?: number;

  @WholeNumberField('pageSize', { max: L.LIST_PAGE_SIZE_MAX, default: L.LIST_PAGE_SIZE_DEFAULT })
  pageSize?: number;
}

function NameField(label: string): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ maxLength: NAME_MAX })(target, key);
    Transform(trim)(target, key);
    IsString({ message: `${label} must be text.` })(target, key);
    IsNotEmpty({ message: `${label} is required.` })(target, key);
    MaxLength(NAME_MAX, { message: profileFieldTooLong(label) })(target, key);
    Matches(NO_NUL_PATTERN, { message: `${label} must be text.` })(target, key);
  };
}

/** POST /api/invitations/accept */
export class AcceptInvitationDto implements AcceptInvitationRequest {
  @ApiProperty()
  @IsString()
  @IsNotEmpty({ message: 'The invitation link is missing its token.' })
  @MaxLength(200)
  token!: string;

  @NameField('First name') firstName!: string;
  @NameField('Last name') lastName!: string;

  @ApiProperty()
  @NewPassword()
  password!: string;

  @ApiProperty({ description: 'The terms and conditions were accepted' })
  @IsBoolean()
  acceptToS!: boolean;
}
