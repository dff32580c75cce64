import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { WholeNumberField } from '../../../platform/web/dto-validation';
import { LIMITS } from '../../../shared/limits';
import {
  SUPPORT_ACCESS_LIMITS as L,
  SUPPORT_ACCESS_STATUSES,
  SupportAccessRequest,
  SupportAccessStatus,
} from '../../../shared/portal/support-access';

/** POST /api/support-access: the member, and why (shown to the site admins who approve it and to the member). */
export class SupportAccessRequestDto implements SupportAccessRequest {
  @ApiProperty({ description: 'The member to act as', type: 'integer', minimum: 1, maximum: LIMITS.ID_MAX })
  @IsInt({ message: `userId must be a whole number from 1 to ${LIMITS.ID_MAX}.` })
  @Min(1, { message: `userId must be a whole number from 1 to ${LIMITS.ID_MAX}.` })
  @Max(LIMITS.ID_MAX, { message: `userId must be a whole number from 1 to ${LIMITS.ID_MAX}.` })
  userId!: number;

  @ApiProperty({ minLength: L.REASON_MIN, maxLength: L.REASON_MAX })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'reason must be text.' })
  @Length(L.REASON_MIN, L.REASON_MAX, {
    message: `reason must be ${L.REASON_MIN} to ${L.REASON_MAX} characters long.`,
  })
  reason!: string;
}

/** GET /api/support-access: filters. */
export class SupportAccessQueryDto {
  @ApiPropertyOptional({ enum: SUPPORT_ACCESS_STATUSES })
  @IsOptional()
  @IsIn(SUPPORT_ACCESS_STATUSES, { message: `status must be one of ${SUPPORT_ACCESS_STATUSES.join(', ')}.` })
  status?: SupportAccessStatus;

  @WholeNumberField('organisationId')
  organisationId?: number;
}
