import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { VALIDATION_PIPE_OPTIONS } from '../dto-validation';

/**
 * The global validation of every body, query and parameter (VALIDATION_PIPE_OPTIONS). A body that is already an
 * instance of its DTO was validated and transformed by a guard, which runs before pipes (the sign-in's LocalAuthGuard),
 * and goes on as it is instead of being validated a second time. What comes from the wire is a plain object, never an
 * instance of a DTO class, so nothing a client sends skips validation.
 */
export class DtoValidationPipe extends ValidationPipe {
  constructor() {
    super(VALIDATION_PIPE_OPTIONS);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && typeof metadata.metatype === 'function' && value instanceof metadata.metatype)
      return value;
    return super.transform(value, metadata);
  }
}
