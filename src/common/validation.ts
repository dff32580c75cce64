import { IsString, MaxLength, MinLength, ValidateIf, ValidationOptions } from 'class-validator';
import { LIMITS } from '../shared/limits';
import { VALIDATION_MESSAGES as V } from '../shared/validation';

/**
 * The field may be left out; when it is sent, every other rule applies, so `null` is refused like any
 * other wrong type. (class-validator's @IsOptional also skips null, which then reaches the database:
 * a NOT NULL column answered 500.) Use @IsOptional only where null means something.
 */
export function OmitOrValid(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined, options);
}

/** The rule every new password follows, on every route that sets one. */
export function NewPassword(): PropertyDecorator {
  return (target, key) => {
    IsString()(target, key);
    MinLength(LIMITS.PASSWORD_MIN, { message: V.NEW_PASSWORD_TOO_SHORT })(target, key);
    MaxLength(LIMITS.PASSWORD_MAX, { message: V.NEW_PASSWORD_TOO_LONG })(target, key);
  };
}
