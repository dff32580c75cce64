import { IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { SHELL_LIMITS } from '../../../shared/portal/shell';
import { CreateAnnouncementRequest } from '../../../shared/api-types';

/** POST /api/announcements: E-Support publishes to every organisation (no organisationId) or to one. */
export class CreateAnnouncementDto implements CreateAnnouncementRequest {
  @IsString()
  @IsNotEmpty({ message: 'Title is required.' })
  @MaxLength(SHELL_LIMITS.ANNOUNCEMENT_TITLE_MAX)
  title!: string;

  @IsString()
  @IsNotEmpty({ message: 'Content is required.' })
  @MaxLength(SHELL_LIMITS.ANNOUNCEMENT_CONTENT_MAX)
  content!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  organisationId?: number | null;
}
