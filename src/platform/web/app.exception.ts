import { HttpException, HttpStatus } from '@nestjs/common';
import { ERROR_CODES, ErrorCode } from '../../shared/messages';

/**
 * An error with the body of docs/product-rules.md §3: {success: false, statusCode, code, message, ...extra}.
 * Services throw these; the global filter writes them out unchanged.
 */
export class AppException extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super({ success: false, statusCode: status, code, message, ...extra }, status);
  }

  static badRequest(message: string, code: ErrorCode = ERROR_CODES.VALIDATION_FAILED, extra?: Record<string, unknown>) {
    return new AppException(HttpStatus.BAD_REQUEST, code, message, extra);
  }
  static unauthorized(
    message = 'Authentication required.',
    code: ErrorCode = ERROR_CODES.UNAUTHENTICATED,
    extra?: Record<string, unknown>,
  ) {
    return new AppException(HttpStatus.UNAUTHORIZED, code, message, extra);
  }
  static forbidden(message = 'You do not have permission to do this.', code: ErrorCode = ERROR_CODES.FORBIDDEN) {
    return new AppException(HttpStatus.FORBIDDEN, code, message);
  }
  static notFound(message = 'Not found.') {
    return new AppException(HttpStatus.NOT_FOUND, ERROR_CODES.NOT_FOUND, message);
  }
  static conflict(message: string, code: ErrorCode = ERROR_CODES.CONFLICT) {
    return new AppException(HttpStatus.CONFLICT, code, message);
  }
}
