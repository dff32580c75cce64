import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { trim } from '../../../platform/web/transforms';
import {
  INTEGRATION_MESSAGES,
  LOG_STREAM_TOKEN_MAX,
  LOG_STREAM_TOKEN_PATTERN,
  LOG_STREAM_TYPES,
  LogStreamType,
  WEBHOOK_URL_MAX,
} from '../../../shared/administration/integrations';

/** POST /api/log-streams */
export class CreateLogStreamDto {
  @IsIn(LOG_STREAM_TYPES, { message: INTEGRATION_MESSAGES.STREAM_TYPE_INVALID })
  type!: LogStreamType;

  @Transform(trim)
  @IsString({ message: INTEGRATION_MESSAGES.URL_INVALID })
  @IsNotEmpty({ message: INTEGRATION_MESSAGES.URL_INVALID })
  @MaxLength(WEBHOOK_URL_MAX, { message: INTEGRATION_MESSAGES.URL_INVALID })
  url!: string;

  @Transform(trim)
  @IsString({ message: INTEGRATION_MESSAGES.STREAM_TOKEN_REQUIRED })
  @IsNotEmpty({ message: INTEGRATION_MESSAGES.STREAM_TOKEN_REQUIRED })
  @MaxLength(LOG_STREAM_TOKEN_MAX, { message: INTEGRATION_MESSAGES.STREAM_TOKEN_REQUIRED })
  @Matches(LOG_STREAM_TOKEN_PATTERN, { message: INTEGRATION_MESSAGES.STREAM_TOKEN_CHARACTERS })
  token!: string;
}
