import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { WholeNumberField } from '../../../platform/web/dto-validation';
import { INSIGHTS_MESSAGES } from '../../../shared/administration/insights';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** GET /api/insights: a period of the organisation's days; E-Support names the organisation. */
export class InsightsQueryDto {
  @ApiProperty({ example: '2026-11-01', description: 'First day of the period (YYYY-MM-DD, in INSIGHTS_TIME_ZONE)' })
  @Matches(DATE, { message: INSIGHTS_MESSAGES.BAD_PERIOD })
  from!: string;

  @ApiProperty({ example: '2026-11-30', description: 'Last day of the period, included; at most 366 days after from' })
  @Matches(DATE, { message: INSIGHTS_MESSAGES.BAD_PERIOD })
  to!: string;

  @WholeNumberField('organisationId', {
    description: 'E-Support only: the organisation to read (default: the caller’s own)',
  })
  organisationId?: number;
}
