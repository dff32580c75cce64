import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppException } from '../app.exception';
import {
  ALLOW_MFA_PENDING_KEY,
  IS_PUBLIC_KEY,
  IS_SCIM_API_KEY,
  IS_SERVICE_API_KEY,
  Roles,
} from '../decorators/access.decorators';
import { AuthUser, mfaPending } from '../auth-user';
import { hasAnyRole } from '../../shared/roles';
import { ACCOUNT_MESSAGES, ERROR_CODES } from '../../shared/messages';

/**
 * Default-deny role check. A route must be @Public(), @ServiceApi(), @ScimApi() or carry @Roles(...); a route
 * with none of them is refused, so a forgotten decorator fails closed. Also keeps an account whose
 * MFA is enforced but not enabled to the routes marked @AllowMfaPending().
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_SERVICE_API_KEY, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_SCIM_API_KEY, targets)) return true;

    const roles = this.reflector.getAllAndOverride(Roles, targets);
    if (!roles || roles.length === 0) throw AppException.forbidden('This route is not open to any role.');

    const user = context.switchToHttp().getRequest().user as AuthUser | undefined;
    if (!user) throw AppException.unauthorized();
    if (!hasAnyRole(user.roles, roles)) throw AppException.forbidden();

    if (mfaPending(user) && !this.reflector.getAllAndOverride<boolean>(ALLOW_MFA_PENDING_KEY, targets)) {
      throw AppException.forbidden(ACCOUNT_MESSAGES.MFA_ENFORCED, ERROR_CODES.MFA_ENROLMENT_REQUIRED);
    }
    return true;
  }
}
