import { Transform } from 'class-transformer';
import { trim } from '../../../platform/web/transforms';
import { IsBoolean, IsDateString, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SYSTEM_EVENT_TYPES, SYSTEM_STATUSES, type SystemStatus } from '../../../shared/portal/shell';
import { SystemInformationQuery } from '../../../shared/api-types';

const EVENT_TYPE_MESSAGE = `eventType must be one of ${SYSTEM_EVENT_TYPES.join(', ')}.`;

/** POST /api/system-information/all (spec 001 §7): eventType and asc (the client sends asc=false). */
export class ListSystemInformationDto implements SystemInformationQuery {
  @IsOptional()
  @IsIn(SYSTEM_EVENT_TYPES, { message: EVENT_TYPE_MESSAGE })
  eventType?: string;

  @IsOptional()
  @IsBoolean({ message: 'asc must be true or false.' })
  asc?: boolean;
}

/** POST /api/system-information with X-Api-Key (docs/product-rules.md §3): an event recorded by another system. */
export class RecordSystemEventDto {
  @IsIn(SYSTEM_EVENT_TYPES, { message: EVENT_TYPE_MESSAGE })
  eventType!: string;

  @IsIn(SYSTEM_STATUSES, { message: `status must be one of ${SYSTEM_STATUSES.join(', ')}.` })
  status!: SystemStatus;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Transform(trim)
  version?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  message?: string;

  /** ISO 8601; defaults to now. */
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'startDateTime must be an ISO 8601 date-time.' })
  startDateTime?: string;
}
