import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { AccessLevel, UserListQuery } from '../../../shared/api-types';
import { ALL_ROLES } from '../../../shared/roles';
import {
  decimalNumber,
  PageField,
  PageSizeField,
  SearchTextField,
  WholeNumberField,
} from '../../../platform/web/dto-validation';

/** Query of GET /api/users (UserListQuery): filtering and paging happen in the database. */
export class UserListQueryDto implements UserListQuery {
  @PageField()
  page?: number;

  @PageSizeField()
  pageSize?: 25 | 50 | 100;

  @SearchTextField('Name or e-mail, case-insensitive; % _ \\ are taken literally')
  searchText?: string;

  @ApiPropertyOptional({ enum: ['all', 'hasAccess', 'noAccess'] })
  @IsOptional()
  @IsIn(['all', 'hasAccess', 'noAccess'], { message: 'accessLevel must be all, hasAccess or noAccess.' })
  accessLevel?: AccessLevel;

  @ApiPropertyOptional({ description: 'A role id of the catalogue' })
  @IsOptional()
  @Transform(decimalNumber)
  @IsIn(ALL_ROLES, { message: 'role must be a role id of the catalogue.' })
  role?: number;

  @WholeNumberField('organisationId', { description: 'E-Support only: the organisation to list' })
  organisationId?: number;
}

/** Query of GET /auth/organisation. */
export class OrganisationQueryDto {
  @WholeNumberField('organisationId', { description: 'E-Support only: the organisation to read' })
  organisationId?: number;
}
