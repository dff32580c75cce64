import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppException } from '../app.exception';
import { AuthUser } from '../auth-user';
import { SessionAuthService } from '../../credentials/session-auth.service';
import { IS_PUBLIC_KEY, IS_SCIM_API_KEY, IS_SERVICE_API_KEY } from '../decorators/access.decorators';

/**
 * Global and default-deny: every HTTP route needs a valid access token of an open session unless
 * @Public(), @ServiceApi() or @ScimApi() (whose guards check their own keys). The passport-jwt strategy
 * (JwtStrategy) checks the token and hands over to the one session check, which puts the caller (`@CurrentUser()`)
 * and their profile (`@CurrentProfile()`) on the request; an expired token is the spec's 403 'jwt expired'
 * (spec 001 §7.1), which the client answers by refreshing.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: SessionAuthService,
  ) {
    super();
  }

  override canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_SERVICE_API_KEY, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_SCIM_API_KEY, targets)) return true;
    return super.canActivate(context) as Promise<boolean>;
  }

  /**
   * An error of the session check (an AppException) goes out as it is. When passport-jwt refuses on its own (no
   * token, a malformed one, a bad signature), the session check is asked for its answer to the same header, so
   * the status, code and message are the ones it gives everywhere else.
   */
  override handleRequest<T = AuthUser>(err: unknown, user: T | false, _info: unknown, context: ExecutionContext): T {
    if (err) throw err;
    if (user) return user;
    // @nestjs/passport resolves the guard with what this returns, so the promise's rejection is the answer.
    return this.refusal(context) as T;
  }

  private async refusal(context: ExecutionContext): Promise<never> {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    await this.auth.authenticateHeader(req.headers.authorization);
    // The session check accepted what passport-jwt refused: refused all the same, as a missing token is.
    throw AppException.unauthorized();
  }
}
