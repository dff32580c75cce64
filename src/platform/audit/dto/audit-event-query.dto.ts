import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { AUDIT_EVENT_TYPE_IDS, AuditEventQuery, AuditEventType } from '../../../shared/audit';
import { PageField, PageSizeField, SearchTextField, WholeNumberField } from '../../web/dto-validation';

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

  @WholeNumberField('actorId')
  actorId?: number;

  @WholeNumberField('targetId')
  targetId?: number;

  @WholeNumberField('supportAccessId')
  supportAccessId?: number;

  @WholeNumberField('onBehalfOfId')
  onBehalfOfId?: number;

  @SearchTextField('Summary, actor or target e-mail, or address; case-insensitive, taken literally')
  searchText?: string;

  @PageField()
  page?: number;

  @PageSizeField()
  pageSize?: 25 | 50 | 100;
}
