import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * The field may be left out; when it is sent, every other rule applies, so `null` is refused like any
 * other wrong type. (class-validator's @IsOptional also skips null, which then reaches the database:
 * a NOT NULL column answered 500.) Use @IsOptional only where null means something.
 */
export function OmitOrValid(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined, options);
}
