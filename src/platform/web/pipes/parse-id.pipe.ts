import { Injectable, PipeTransform } from '@nestjs/common';
import { AppException } from '../app.exception';
import { ERROR_CODES } from '../../../shared/messages';
import { LIMITS } from '../../../shared/limits';

/** A path parameter that names a stored row: a whole number from 1 to LIMITS.ID_MAX, else 400. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(id) || id < 1 || id > LIMITS.ID_MAX)
      throw AppException.badRequest(
        'The id must be a whole number from 1 to 2147483647.',
        ERROR_CODES.VALIDATION_FAILED,
      );
    return id;
  }
}
