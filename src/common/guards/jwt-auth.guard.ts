import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SessionAuthService } from '../../credentials/session-auth.service';
import { IS_PUBLIC_KEY, IS_SCIM_API_KEY, IS_SERVICE_API_KEY } from '../decorators/access.decorators';

/**
 * Global and default-deny: every HTTP route needs a valid access token of an open session unless
 * @Public(), @ServiceApi() or @ScimApi() (whose guards check their own keys). Puts the caller
 * (`@CurrentUser()`) and their profile (`@CurrentProfile()`) on the request; an expired token is the spec's 403 'jwt expired' (spec 001 §7.1), which the client
 * answers by refreshing.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: SessionAuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_SERVICE_API_KEY, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_SCIM_API_KEY, targets)) return true;
    const req = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined>; user?: unknown; profile?: unknown }>();
    const signedIn = await this.auth.authenticateHeader(req.headers.authorization);
    req.user = signedIn.user;
    req.profile = signedIn.profile;
    return true;
  }
}
