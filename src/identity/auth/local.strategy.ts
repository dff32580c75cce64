import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { Request } from 'express';
import { Strategy } from 'passport-local';
import { AppException } from '../../platform/web/app.exception';
import { browserTokenOf } from '../../platform/web/http/browser-cookie';
import { challengeOf } from '../../platform/web/decorators/current-user.decorator';
import { DtoValidationPipe } from '../../platform/web/pipes/dto-validation.pipe';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { AUTH_MESSAGES, ERROR_CODES } from '../../shared/messages';
import { AuthService, SignedIn } from './auth.service';
import { LoginDto } from './dto/login.dto';

/**
 * POST /auth/login's credential check as a passport-local strategy: username and password from the body, then
 * the sign-in machine of AuthService.login (throttle, one argon2 verification even for an unknown e-mail, the
 * MFA step with its challenge token or a recovery code, a trusted device's cookie, a due password change).
 * Passport hands the result on as `req.user`.
 */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, 'local') {
  constructor(private readonly auth: AuthService) {
    super({ usernameField: 'username', passwordField: 'password', passReqToCallback: true });
  }

  /** `req.body` is the LoginDto the guard validated (trimmed, unknown fields refused). */
  validate(req: Request, _username: string, _password: string): Promise<SignedIn> {
    const cookies = (req as Request & { cookies?: Record<string, string> }).cookies;
    return this.auth.login(
      req.body as LoginDto,
      // The MFA step's challenge token, as the access guard verified it.
      challengeOf(req),
      { ip: req.ip ?? 'unknown', userAgent: req.headers['user-agent'], browser: browserTokenOf(req) },
      cookies,
    );
  }
}

const loginBody = new DtoValidationPipe();

/**
 * The guard of POST /auth/login. Guards run before pipes, so it validates the body itself, with the LoginDto and
 * the global pipe (DtoValidationPipe, which then passes the validated body on): a malformed body is the same 400 with the error body (docs/product-rules.md §3) as anywhere
 * else, never passport's bare 401. It counts every outcome for the metrics (interceptors do not see a guard's errors).
 */
@Injectable()
export class LocalAuthGuard extends AuthGuard('local') {
  constructor(
    private readonly metrics: MetricsService,
    private readonly strategy: LocalStrategy,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      const req = context.switchToHttp().getRequest<Request>();
      const body = (await loginBody.transform(req.body, { type: 'body', metatype: LoginDto })) as LoginDto;
      req.body = body;
      // Passkeys: a password-less sign-in has no username and password for passport-local to read.
      const passwordLess = body.passkey !== undefined && body.username === undefined && body.password === undefined;
      let allowed = true;
      if (passwordLess) (req as Request & { user?: unknown }).user = await this.strategy.validate(req, '', '');
      else allowed = (await super.canActivate(context)) as boolean;
      this.metrics.login('success');
      return allowed;
    } catch (e) {
      this.metrics.login(e instanceof AppException ? String(e.code) : 'error');
      throw e;
    }
  }

  /** An error of the sign-in machine goes out as it is; passport's own refusal (an empty password) is a wrong login. */
  override handleRequest<T = SignedIn>(err: unknown, user: T | false): T {
    if (err) throw err;
    if (!user) throw AppException.unauthorized(AUTH_MESSAGES.INVALID_CREDENTIALS, ERROR_CODES.INVALID_CREDENTIALS);
    return user;
  }
}
