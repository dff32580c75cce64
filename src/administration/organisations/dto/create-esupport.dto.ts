import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength, NotContains } from 'class-validator';
import { ORG_ADMIN_MESSAGES as M } from '../../../shared/administration/organisation-admin';
import { CreateESupportRequest } from '../../../shared/api-types';

/** POST /api/users/add-esupport (spec 001 §5): the local part of the e-mail; the domain is fixed. */
export class CreateESupportDto implements CreateESupportRequest {
  @Transform(({ value }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value === undefined || value === null ? '' : value,
  )
  @IsString({ message: M.ESUPPORT_EMAIL_REQUIRED })
  @IsNotEmpty({ message: M.ESUPPORT_EMAIL_REQUIRED })
  @Matches(/^[^@|]*$/, { message: M.ESUPPORT_FORBIDDEN_CHARS })
  @NotContains(' ', { message: M.INVALID_EMAIL })
  @MaxLength(64, { message: 'Email must be at most 64 characters before the domain' })
  userName = '';
}
