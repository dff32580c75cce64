import { Transform } from 'class-transformer';
import { trim, trimOrEmpty } from '../../common/transforms';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { ORG_ADMIN_MESSAGES as M } from '../../shared/organisation-admin';


/** Spec 001 §3/§5: fullName required, every value trimmed before it is checked and saved. */
export class ContactProfileDto {
  @Transform(trimOrEmpty)
  @IsString({ message: M.FULL_NAME_REQUIRED })
  @IsNotEmpty({ message: M.FULL_NAME_REQUIRED })
  @MaxLength(100, { message: 'Full name must be at most 100 characters' })
  fullName = '';

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(100, { message: 'Job title must be at most 100 characters' })
  jobTitle?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(100, { message: 'Department must be at most 100 characters' })
  department?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(100, { message: 'Based in must be at most 100 characters' })
  basedIn?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(100, { message: M.EMAIL_TOO_LONG })
  @ValidateIf((o: ContactProfileDto) => !!o.email)
  @Matches(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: M.INVALID_EMAIL })
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
