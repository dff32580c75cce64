import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { NewPassword } from '../../../platform/web/dto-validation';
import { trim } from '../../../platform/web/transforms';
import { accountEmailProblem } from '../lifecycle/account-email';
import { OmitOrValid } from '../../../platform/web/dto-validation';
import { EMAIL_PATTERN, LIMITS } from '../../../shared/limits';
import { NAME_MAX, profileFieldTooLong, VALIDATION_MESSAGES as V } from '../../../shared/validation';
import {
  DisableUserRequest,
  EnforceMfaRequest,
  NewUserPayload,
  UpdatePasswordPayload,
  UpdateProfilePayload,
  UpdateRoleRequest,
  UpdateSsoRequest,
  UserIdRequest,
} from '../../../shared/api-types';

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** The new user's e-mail: the one rule of every account's address (one message per failure, spec 000 §5's order). */
export const newUserEmailError = accountEmailProblem;

function IsNewUserEmail(): PropertyDecorator {
  const rule = ValidateBy({
    name: 'isNewUserEmail',
    validator: {
      validate: (value) => newUserEmailError(value) === null,
      defaultMessage: (args) => newUserEmailError(args?.value) ?? '',
    },
  });
  // The same bounds, for the OpenAPI document (a custom rule is opaque to its generator).
  const schema = JSONSchema({
    type: 'string',
    minLength: 1,
    maxLength: LIMITS.EMAIL_MAX,
    pattern: EMAIL_PATTERN.source,
  });
  return (target, key) => {
    rule(target, key);
    schema(target, String(key));
  };
}

/** A target user: every admin change names one. */
export class UserIdDto implements UserIdRequest {
  @ApiProperty()
  @IsInt({ message: 'userId must be a whole number.' })
  @Min(1, { message: 'userId must be a whole number.' })
  userId!: number;
}

/** PUT /api/users/updateRole */
export class UpdateRoleDto extends UserIdDto implements UpdateRoleRequest {
  @ApiProperty({ type: [Number], example: [4, 3] })
  @IsArray({ message: 'newUserRoleIds must be a list of role ids.' })
  @ArrayNotEmpty({ message: 'Choose a role.' })
  @ArrayMaxSize(2, { message: 'Choose exactly one role, optionally with the Administrator role.' })
  @IsInt({ each: true, message: 'newUserRoleIds must be a list of role ids.' })
  newUserRoleIds!: number[];
}

/** PUT /api/users/enforceMFA */
export class EnforceMfaDto extends UserIdDto implements EnforceMfaRequest {
  @ApiProperty()
  @IsBoolean({ message: 'isMFAEnforced must be true or false.' })
  isMFAEnforced!: boolean;
}

/** PUT /api/users/updateSsoStatus */
export class UpdateSsoDto extends UserIdDto implements UpdateSsoRequest {
  @ApiProperty()
  @IsBoolean({ message: 'isSSOEnabled must be true or false.' })
  isSSOEnabled!: boolean;
}

/** PUT /api/users/disableUser */
export class DisableUserDto extends UserIdDto implements DisableUserRequest {
  @ApiProperty()
  @IsBoolean({ message: 'isDisabled must be true or false.' })
  isDisabled!: boolean;
}

function ProfileField(label: string): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ maxLength: NAME_MAX })(target, key);
    OmitOrValid()(target, key);
    Transform(trim)(target, key);
    IsString({ message: `${label} must be text.` })(target, key);
    MaxLength(NAME_MAX, { message: profileFieldTooLong(label) })(target, key);
  };
}

/** PUT /api/users/updateUser: the caller's own profile; fields are trimmed (spec 000 §5); absent ones stay. */
export class UpdateProfileDto implements Partial<UpdateProfilePayload> {
  @ApiPropertyOptional({ description: "When given, must be the caller (one edits only one's own profile)" })
  @IsOptional()
  @IsInt({ message: 'userId must be a whole number.' })
  userId?: number;

  @ProfileField('First name') firstName?: string;
  @ProfileField('Last name') lastName?: string;
  @ProfileField('Job title') jobTitle?: string;
  @ProfileField('Department') department?: string;
  @ProfileField('Location') location?: string;
}

/** PATCH /api/users/updatePassword: the new password, and the current one to prove it is the owner. */
export class UpdatePasswordDto implements UpdatePasswordPayload {
  @ApiProperty()
  @NewPassword()
  userPassword!: string;

  @ApiProperty()
  @IsString({ message: V.FIELDS_EMPTY })
  @IsNotEmpty({ message: V.FIELDS_EMPTY })
  @MaxLength(LIMITS.PASSWORD_MAX, { message: V.NEW_PASSWORD_TOO_LONG })
  currentPassword!: string;
}

/** POST /api/users/add (spec 000 §3 'New user payload'; defaults of §9: MFA enforced, no SSO, the base role). */
export class AddUserDto implements Partial<NewUserPayload> {
  @ApiProperty({ example: 'new.user@example.com' })
  @Transform(lower)
  @IsNewUserEmail()
  userEmail!: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'isMFAEnforced must be true or false.' })
  isMFAEnforced?: boolean;

  @ApiPropertyOptional({ type: [Number], default: [4] })
  @IsOptional()
  @IsArray({ message: 'userRoleIds must be a list of role ids.' })
  @ArrayNotEmpty({ message: 'Choose a role.' })
  @ArrayMaxSize(2, { message: 'Choose exactly one role, optionally with the Administrator role.' })
  @IsInt({ each: true, message: 'userRoleIds must be a list of role ids.' })
  userRoleIds?: number[];

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean({ message: 'isSSO must be true or false.' })
  isSSO?: boolean;
}
