import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { trim } from '../../../platform/web/transforms';
import {
  INTEGRATION_MESSAGES,
  WEBHOOK_ALL_EVENTS,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
} from '../../../shared/administration/integrations';

const SUBSCRIBABLE = [WEBHOOK_ALL_EVENTS, ...WEBHOOK_EVENT_TYPES];

/** PUT /api/webhooks/{id}: the fields it names change, the others stay. */
export class ChangeWebhookDto {
  @IsOptional()
  @Transform(trim)
  @IsString({ message: INTEGRATION_MESSAGES.URL_INVALID })
  @IsNotEmpty({ message: INTEGRATION_MESSAGES.URL_INVALID })
  @MaxLength(WEBHOOK_URL_MAX, { message: INTEGRATION_MESSAGES.URL_INVALID })
  url?: string;

  @IsOptional()
  @IsArray({ message: INTEGRATION_MESSAGES.EVENTS_INVALID })
  @ArrayMinSize(1, { message: INTEGRATION_MESSAGES.EVENTS_INVALID })
  @ArrayMaxSize(SUBSCRIBABLE.length, { message: INTEGRATION_MESSAGES.EVENTS_INVALID })
  @IsIn(SUBSCRIBABLE, { each: true, message: INTEGRATION_MESSAGES.EVENTS_INVALID })
  events?: string[];

  @IsOptional()
  @Transform(trim)
  @IsString({ message: INTEGRATION_MESSAGES.DESCRIPTION_TOO_LONG })
  @MaxLength(WEBHOOK_DESCRIPTION_MAX, { message: INTEGRATION_MESSAGES.DESCRIPTION_TOO_LONG })
  description?: string;

  @IsOptional()
  @IsBoolean({ message: INTEGRATION_MESSAGES.ENABLED_INVALID })
  enabled?: boolean;
}

/** POST /api/webhooks */
export class CreateWebhookDto {
  @Transform(trim)
  @IsString({ message: INTEGRATION_MESSAGES.URL_INVALID })
  @IsNotEmpty({ message: INTEGRATION_MESSAGES.URL_INVALID })
  @MaxLength(WEBHOOK_URL_MAX, { message: INTEGRATION_MESSAGES.URL_INVALID })
  url!: string;

  @IsArray({ message: INTEGRATION_MESSAGES.EVENTS_INVALID })
  @ArrayMinSize(1, { message: INTEGRATION_MESSAGES.EVENTS_INVALID })
  @ArrayMaxSize(SUBSCRIBABLE.length, { message: INTEGRATION_MESSAGES.EVENTS_INVALID })
  @IsIn(SUBSCRIBABLE, { each: true, message: INTEGRATION_MESSAGES.EVENTS_INVALID })
  events!: string[];

  @IsOptional()
  @Transform(trim)
  @IsString({ message: INTEGRATION_MESSAGES.DESCRIPTION_TOO_LONG })
  @MaxLength(WEBHOOK_DESCRIPTION_MAX, { message: INTEGRATION_MESSAGES.DESCRIPTION_TOO_LONG })
  description?: string;
}
