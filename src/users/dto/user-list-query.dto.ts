import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { AccessLevel, UserListQuery } from '../../shared/api-types';
import { ALL_ROLES } from '../../shared/roles';
import { PageField, PageSizeField, SearchTextField } from '../../common/validation';

/** Query of GET /api/users (UserListQuery): filtering and paging happen in the database. */
export class UserListQueryDto implements UserListQuery {
  @PageField()
  @Max(1_000_000, { message: 'page must be at most 1000000.' })
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
  @Type(() => Number)
  @IsIn(ALL_ROLES, { message: 'role must be a role id of the catalogue.' })
  role?: number;

  @ApiPropertyOptional({ description: 'E-Support only: the organisation to list' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'organisationId must be a whole number.' })
  @Min(1, { message: 'organisationId must be a whole number.' })
  organisationId?: number;
}

/** Query of GET /auth/organisation. */
export class OrganisationQueryDto {
  @ApiPropertyOptional({ description: 'E-Support only: the organisation to read' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'organisationId must be a whole number.' })
  @Min(1, { message: 'organisationId must be a whole number.' })
  organisationId?: number;
}
