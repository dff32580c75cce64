import { HttpStatus } from '@nestjs/common';
import { AppException } from '../../../platform/web/app.exception';
import { ERROR_CODES } from '../../../shared/messages';
import { SSO_MESSAGES } from '../../../shared/identity/sso';

/**
 * A provider's answer that failed the protocol's checks. The person signing in sees the generic message; the
 * technical reason is logged, and shown to the administrator who tests the connection.
 */
export class ProviderRefusal extends AppException {
  constructor(readonly detail: string) {
    super(HttpStatus.UNAUTHORIZED, ERROR_CODES.SSO_FAILED, SSO_MESSAGES.FAILED);
  }
}
