import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppException } from '../app.exception';
import { IS_PUBLIC_KEY, IS_SERVICE_API_KEY } from '../decorators/access.decorators';
import { jwtExpired } from '../../auth/token.service';

/** Global and default-deny: every HTTP route needs a valid access token unless @Public() or @ServiceApi(). */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  canActivate(context: ExecutionContext) {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_SERVICE_API_KEY, targets)) return true;
    return super.canActivate(context);
  }

  handleRequest<T>(err: unknown, user: T, info: unknown): T {
    if (err) throw err instanceof AppException ? err : AppException.unauthorized();
    // The specification's client refreshes on exactly this answer (spec 001 §7.1).
    if ((info as Error | undefined)?.name === 'TokenExpiredError') throw jwtExpired();
    if (!user) throw AppException.unauthorized();
    return user;
  }
}
