import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { INSIGHTS_MESSAGES } from '../../../shared/administration/insights';

/** DELETE /api/me/sessions?others=true */
export class EndOtherSessionsQueryDto {
  @ApiPropertyOptional({ enum: ['true'], description: 'true: end every session of yours but this one' })
  @IsOptional()
  @IsIn(['true'], { message: INSIGHTS_MESSAGES.OTHERS_REQUIRED })
  others?: 'true';
}

/** POST /auth/not-me: the token of a new-browser e-mail's "This wasn't me" link. */
export class NotMeDto {
  @ApiProperty({ description: 'The token of the link' })
  @IsString({ message: INSIGHTS_MESSAGES.NOT_ME_INVALID })
  @IsNotEmpty({ message: INSIGHTS_MESSAGES.NOT_ME_INVALID })
  @MaxLength(100, { message: INSIGHTS_MESSAGES.NOT_ME_INVALID })
  token!: string;
}
