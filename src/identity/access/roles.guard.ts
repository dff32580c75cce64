import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, mfaPending } from '../../platform/web/auth-user';
import { hasAnyRole } from '../../shared/roles';
import { ACCOUNT_MESSAGES, ERROR_CODES } from '../../shared/messages';
import { accessOf, refusedInSupportSession } from '../../platform/web/decorators/access.decorators';
import { SUPPORT_ACCESS_MESSAGES } from '../../shared/portal/support-access';

/**
 * Default-deny role check. A route must carry @Access (roles, or public, service key, provisioning token, sign-in
 * challenge); a route without it is refused, so a forgotten decorator fails closed. Also keeps an account whose
 * MFA is enforced but not enabled to the routes whose @Access says `mfaPending: true`. A support-access session is
 * refused every sensitive call and the routes marked `supportSession: 'refused'` first, before its role is read.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const access = accessOf(this.reflector, context);
    if (access && access.kind !== 'roles') return true;
    if (!access || access.roles.length === 0) throw AppException.forbidden('This route is not open to any role.');

    const req = context
      .switchToHttp()
      .getRequest<{ user?: AuthUser; body?: unknown; query?: unknown; params?: unknown }>();
    const user = req.user;
    if (!user) throw AppException.unauthorized();
    // A support-access session is refused what it may never do before anything else is weighed (docs/support-access.md).
    if (user.support && refusedInSupportSession(access, req))
      throw AppException.forbidden(SUPPORT_ACCESS_MESSAGES.FORBIDDEN, ERROR_CODES.SUPPORT_ACCESS_FORBIDDEN);
    // An organisation API key's scope, checked with the key by the JWT guard, stands in for the route's roles.
    if (user.apiKey) return true;
    if (!hasAnyRole(user.roles, access.roles)) throw AppException.forbidden();

    if (mfaPending(user) && !access.mfaPending) {
      throw AppException.forbidden(ACCOUNT_MESSAGES.MFA_ENFORCED, ERROR_CODES.MFA_ENROLMENT_REQUIRED);
    }
    return true;
  }
}
