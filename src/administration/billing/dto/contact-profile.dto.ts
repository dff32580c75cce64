import { Transform } from 'class-transformer';
import { trim, trimOrEmpty } from '../../../platform/web/transforms';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { ORG_ADMIN_MESSAGES as M } from '../../../shared/administration/organisation-admin';
import { EMAIL_PATTERN, LIMITS } from '../../../shared/limits';
import { ContactProfile } from '../../../shared/api-types';
import { atMostMessage, NAME_MAX } from '../../../shared/validation';

/** Spec 001 §3/§5: fullName required, every value trimmed before it is checked and saved. */
/** The request's fields: ContactProfile without its id. */
export class ContactProfileDto implements Partial<Omit<ContactProfile, 'id'>> {
  @Transform(trimOrEmpty)
  @IsString({ message: M.FULL_NAME_REQUIRED })
  @IsNotEmpty({ message: M.FULL_NAME_REQUIRED })
  @MaxLength(NAME_MAX, { message: atMostMessage('Full name', NAME_MAX) })
  fullName = '';

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(NAME_MAX, { message: atMostMessage('Job title', NAME_MAX) })
  jobTitle?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(NAME_MAX, { message: atMostMessage('Department', NAME_MAX) })
  department?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(NAME_MAX, { message: atMostMessage('Based in', NAME_MAX) })
  basedIn?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(LIMITS.EMAIL_MAX, { message: M.EMAIL_TOO_LONG })
  @ValidateIf((o: ContactProfileDto) => !!o.email)
  @Matches(EMAIL_PATTERN, { message: M.INVALID_EMAIL })
  email?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(40, { message: 'Mobile must be at most 40 characters' })
  mobile?: string;
}

/** POST: a contact not saved yet (no id). */
export class CreateContactProfileDto extends ContactProfileDto {
  /** Accepted and ignored when null, so the client can send the profile it read. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  id?: number | null;
}

/** PUT: a saved contact, by its id. */
export class UpdateContactProfileDto extends ContactProfileDto {
  @IsInt({ message: 'id must be the id of the saved contact' })
  id!: number;
}
