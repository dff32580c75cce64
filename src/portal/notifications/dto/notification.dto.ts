import type { PublishNotificationRequest } from '../../../shared/portal/notifications';
import { LIMITS } from '../../../shared/limits';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { OmitOrValid } from '../../../platform/web/dto-validation';
import { CONTENT_FIELD_LIMITS as L, NOTIFICATION_TYPES, NotificationType } from '../../../shared/portal/notifications';

const text = (field: keyof typeof L) => [
  IsOptional(),
  IsString({ message: `content.${field} must be text.` }),
  MaxLength(L[field], { message: `content.${field} must be at most ${L[field]} characters.` }),
];
function Text(field: keyof typeof L): PropertyDecorator {
  return (target, key) => text(field).forEach((d) => d(target, key));
}

/** The content fields of spec 001 §3; anything else is refused. */
export class NotificationContentDto {
  @ApiPropertyOptional() @Text('status') status?: string;
  @ApiPropertyOptional() @Text('message') message?: string;
  @ApiPropertyOptional() @Text('subCategory') subCategory?: string;
  @ApiPropertyOptional() @Text('portfolioName') portfolioName?: string;
  @ApiPropertyOptional() @Text('portfolioCode') portfolioCode?: string;
  @ApiPropertyOptional() @Text('startDate') startDate?: string;
  @ApiPropertyOptional() @Text('endDate') endDate?: string;
  @ApiPropertyOptional() @Text('summary') summary?: string;
  @ApiPropertyOptional() @Text('detail') detail?: string;
  @ApiPropertyOptional() @Text('fileName') fileName?: string;
  @ApiPropertyOptional({
    description:
      'An https URL, or /files/reports/<organisationId>/<name> of a report uploaded with POST api/notifications/reports',
  })
  @Text('downloadLink')
  downloadLink?: string;
}

/** POST api/notifications (X-Api-Key, docs/product-rules.md §3): one user or a whole organisation. */
export class PublishNotificationDto implements PublishNotificationRequest {
  @ApiPropertyOptional()
  @OmitOrValid()
  @IsInt({ message: 'userId must be a whole number.' })
  @Min(1, { message: 'userId must be a whole number.' })
  userId?: number;

  @ApiPropertyOptional()
  @OmitOrValid()
  @IsInt({ message: 'organisationId must be a whole number.' })
  @Min(1, { message: 'organisationId must be a whole number.' })
  organisationId?: number;

  @ApiProperty({ enum: NOTIFICATION_TYPES })
  @IsIn(NOTIFICATION_TYPES as unknown as string[], { message: `type must be one of ${NOTIFICATION_TYPES.join(', ')}.` })
  type!: NotificationType;

  @ApiProperty({ type: NotificationContentDto })
  @IsObject({ message: 'content must be an object.' })
  @ValidateNested()
  @Type(() => NotificationContentDto)
  content!: NotificationContentDto;
}

/** POST api/notifications/reports (X-Api-Key), multipart: the report file and its organisation. */
export class UploadReportDto {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'organisationId must be a whole number.' })
  @Min(1, { message: 'organisationId must be a whole number.' })
  organisationId!: number;
}

/** GET api/processedData/processLogUrl/{portfolioId}: the portfolio's id or code. */
export class PortfolioIdParam {
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/, {
    message: 'portfolioId must be 1 to 50 letters, digits, dashes or underscores.',
  })
  portfolioId!: string;
}

export class NotificationIdParam {
  @Type(() => Number)
  @IsInt({ message: 'The notification id must be a whole number.' })
  @Min(1, { message: 'The notification id must be a whole number.' })
  @Max(LIMITS.ID_MAX, { message: 'The notification id must be a whole number.' })
  id!: number;
}
