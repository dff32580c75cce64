import { HttpStatus } from '@nestjs/common';
import { AppException } from '../../platform/web/app.exception';
import { ERROR_CODES, ErrorCode } from '../../shared/messages';

/** RFC 7644 §3.12's scimType values this service answers with. */
export type ScimType =
  'uniqueness' | 'invalidFilter' | 'invalidPath' | 'invalidSyntax' | 'invalidValue' | 'mutability' | 'noTarget';

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: ERROR_CODES.VALIDATION_FAILED,
  404: ERROR_CODES.NOT_FOUND,
  409: ERROR_CODES.CONFLICT,
  412: ERROR_CODES.CONFLICT,
};

/** An error the exception filter writes in the SCIM error schema (and the error body (docs/product-rules.md §3)). */
export function scimError(status: HttpStatus, detail: string, scimType?: ScimType, code?: ErrorCode): AppException {
  return new AppException(
    status,
    code ?? CODE_BY_STATUS[status] ?? ERROR_CODES.VALIDATION_FAILED,
    detail,
    scimType ? { scimType } : {},
  );
}

export const badValue = (detail: string) => scimError(HttpStatus.BAD_REQUEST, detail, 'invalidValue');
export const badSyntax = (detail: string) => scimError(HttpStatus.BAD_REQUEST, detail, 'invalidSyntax');
export const badPath = (detail: string) => scimError(HttpStatus.BAD_REQUEST, detail, 'invalidPath');
export const immutable = (detail: string) => scimError(HttpStatus.BAD_REQUEST, detail, 'mutability');
export const notFound = (what: 'User' | 'Group', id: string) =>
  scimError(HttpStatus.NOT_FOUND, `${what} ${id} not found.`);
