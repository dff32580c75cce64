import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, Min } from 'class-validator';
import { AUDIT_EVENT_TYPE_IDS, AuditEventQuery, AuditEventType } from '../../shared/audit';
import { PageField, PageSizeField, SearchTextField } from '../../common/validation';

/** Query of GET /api/audit-events and its export: filtering and paging happen in the database. */
export class AuditEventQueryDto implements AuditEventQuery {
  @ApiPropertyOptional({ description: 'ISO date or date-time, inclusive' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date or date-time.' })
  from?: string;

  @ApiPropertyOptional({ description: 'ISO date (the whole day) or date-time, inclusive' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date or date-time.' })
  to?: string;

  @ApiPropertyOptional({ enum: AUDIT_EVENT_TYPE_IDS })
  @IsOptional()
  @IsIn(AUDIT_EVENT_TYPE_IDS, { message: 'type must be an audit event type.' })
  type?: AuditEventType;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'actorId must be a whole number.' })
  @Min(1, { message: 'actorId must be a whole number.' })
  actorId?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'targetId must be a whole number.' })
  @Min(1, { message: 'targetId must be a whole number.' })
  targetId?: number;

  @SearchTextField('Summary, actor or target e-mail, or address; case-insensitive, taken literally')
  searchText?: string;

  @PageField()
  page?: number;

  @PageSizeField()
  pageSize?: 25 | 50 | 100;
}
