import { applyDecorators, ValidationError, ValidationPipeOptions } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { AppException } from './app.exception';
import { ERROR_CODES } from '../../shared/messages';
import { LIMITS } from '../../shared/limits';
import { NO_NUL_PATTERN, VALIDATION_MESSAGES as V } from '../../shared/validation';

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

function flatten(errors: ValidationError[], parent = ''): Array<{ field: string; message: string }> {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    // A field two rules refuse for one reason (an array's allowed values and its size) says the reason once.
    const own = [...new Set(Object.values(e.constraints ?? {}))].map((message) => ({
      field,
      message: message.includes('should not exist') ? `Unknown field "${field}".` : message,
    }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * How every request body, query and parameter is validated (the global ValidationPipe, and the login guard,
 * which runs before pipes): unknown fields refused, values transformed, failures as a 400 in the error body (docs/product-rules.md §3).
 */
export const VALIDATION_PIPE_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => {
    const details = flatten(errors);
    return AppException.badRequest(details.map((d) => d.message).join('; '), ERROR_CODES.VALIDATION_FAILED, {
      errors: details,
    });
  },
};

/**
 * `searchText` of a list query: optional text of at most LIMITS.EMAIL_MAX characters, without a NUL (SQLite's LIKE
 * and FTS5 read one as the end of the text: the user search failed, exports and the audit search matched all).
 */
export function SearchTextField(description: string): PropertyDecorator {
  return applyDecorators(
    Matches(NO_NUL_PATTERN, { message: V.SEARCH_NUL }),
    MaxLength(LIMITS.EMAIL_MAX, { message: V.SEARCH_TOO_LONG }),
    IsString(),
    IsOptional(),
    ApiPropertyOptional({ description }),
  );
}

/**
 * A number as a query string (or a multipart field) carries it: decimal digits with an optional minus, nothing else.
 * Anything else (an exponent, a fraction, hex, spaces, an empty value, a repeated parameter) stays as sent and is
 * refused by the rules that follow, where `Number()` would have read "1e3" as 1000 and "" as 0.
 */
export const decimalNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;

/**
 * A whole-number field of a query: optional, decimal digits only (decimalNumber), from `min` to `max`. `max`
 * defaults to LIMITS.ID_MAX: every number a request carries is stored in, or compared with, a 32-bit column, and the
 * OpenAPI document states that bound (int32) for every integer; a larger one is refused here, never by the database.
 */
export function WholeNumberField(
  name: string,
  {
    min = 1,
    max = LIMITS.ID_MAX,
    ...documented
  }: { min?: number; max?: number; description?: string; default?: number } = {},
): PropertyDecorator {
  const message = `${name} must be a whole number from ${min} to ${max}.`;
  return applyDecorators(
    Max(max, { message }),
    Min(min, { message }),
    IsInt({ message }),
    Transform(decimalNumber),
    IsOptional(),
    ApiPropertyOptional({ type: 'integer', minimum: min, maximum: max, ...documented }),
  );
}

/** `page` of a paged list query: optional, a whole number from 1 to LIMITS.PAGE_MAX. */
export function PageField(): PropertyDecorator {
  return WholeNumberField('page', { max: LIMITS.PAGE_MAX, default: 1 });
}

/** `pageSize` of a paged list query: optional, one of LIMITS.PAGE_SIZES, in decimal digits. */
export function PageSizeField(): PropertyDecorator {
  return applyDecorators(
    IsIn(LIMITS.PAGE_SIZES, { message: V.PAGE_SIZE_INVALID }),
    Transform(decimalNumber),
    IsOptional(),
    ApiPropertyOptional({ enum: LIMITS.PAGE_SIZES, default: LIMITS.DEFAULT_PAGE_SIZE }),
  );
}
