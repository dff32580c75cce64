import { HttpStatus } from '@nestjs/common';
import { AppException } from '../../../platform/web/app.exception';
import { maySignIn } from '../../credentials/may-sign-in';
import { ERROR_CODES } from '../../../shared/messages';
import { User } from '../../../platform/database/entities/user.entity';

/** Refuses an account that is disabled or blocked, at every way in (password, passkey, SSO, a forced change). */
export function assertMaySignIn(user: User): void {
  if (!maySignIn(user)) {
    throw new AppException(
      HttpStatus.FORBIDDEN,
      ERROR_CODES.ACCOUNT_DISABLED,
      'Your account has been disabled. Please contact your administrator.',
    );
  }
}
