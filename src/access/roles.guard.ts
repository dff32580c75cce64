import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppException } from '../common/app.exception';
import { AuthUser, mfaPending } from '../common/auth-user';
import { hasAnyRole } from '../shared/roles';
import { ACCOUNT_MESSAGES, ERROR_CODES } from '../shared/messages';
import { accessOf } from '../common/decorators/access.decorators';

/**
 * Default-deny role check. A route must carry @Access (roles, or public, service key, provisioning token, sign-in
 * challenge); a route without it is refused, so a forgotten decorator fails closed. Also keeps an account whose
 * MFA is enforced but not enabled to the routes whose @Access says `mfaPending: true`.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const access = accessOf(this.reflector, context);
    if (access && access.kind !== 'roles') return true;
    if (!access || access.roles.length === 0) throw AppException.forbidden('This route is not open to any role.');

    const user = context.switchToHttp().getRequest().user as AuthUser | undefined;
    if (!user) throw AppException.unauthorized();
    // An organisation API key's scope, checked with the key by the JWT guard, stands in for the route's roles.
    if (user.apiKey) return true;
    if (!hasAnyRole(user.roles, access.roles)) throw AppException.forbidden();

    if (mfaPending(user) && !access.mfaPending) {
      throw AppException.forbidden(ACCOUNT_MESSAGES.MFA_ENFORCED, ERROR_CODES.MFA_ENROLMENT_REQUIRED);
    }
    return true;
  }
}
