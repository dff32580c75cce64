import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, AuthGuardAuthenticateOptions } from '@nestjs/passport';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { OPTIONAL_CALLER } from '../../platform/web/decorators/current-user.decorator';
import { enterSupportSession } from '../../platform/web/support-session-call';
import { ApiKeyAuthService, isApiKey } from '../credentials/api-key-auth.service';
import { PassportVerifiedTokens } from '../credentials/passport-verified-tokens';
import { originOf, SessionAuthService } from '../credentials/session-auth.service';
import { bearer } from '../credentials/token.service';
import { API_KEY_MESSAGES } from '../../shared/administration/api-keys';
import { ERROR_CODES } from '../../shared/messages';
import { AccessRule, accessOf } from '../../platform/web/decorators/access.decorators';
import { apiKeyMayCall } from '../credentials/api-key-scope';

/**
 * Global and default-deny: every HTTP route needs a valid access token of an open session unless its @Access says
 * otherwise (public, service key, provisioning token, a sign-in challenge: their guards check their own
 * credentials). The passport-jwt strategy (JwtStrategy) checks the token and hands over to the one session check,
 * which puts the caller (`@CurrentUser()`) and their profile (`@CurrentProfile()`) on the request; an expired token
 * is the spec's 403 'jwt expired' (spec 001 §7.1), which the client answers by refreshing. A public route that reads
 * the caller's own token when one comes (`session: 'optional'`: logout, status, a signed-in sender) gets it through
 * the same strategy as `@OptionalCaller()`, or nothing; it is not counted per account by the rate limiter.
 *
 * An organisation API key (`Bearer tpk_…`, docs/api-keys.md) is told from an access token by its prefix and checked
 * here too (ApiKeyAuthService: its hash looked up on every call): unknown, revoked or expired is 401; a valid key on
 * a route outside its scopes, or a sensitive call, is 403 INSUFFICIENT_SCOPE; otherwise it is the caller, acting
 * as an Administrator of its organisation. Public routes ignore it as they ignore any credential.
 *
 * A token passport-jwt has already verified (PassportVerifiedTokens: the exact string, until its expiry) goes
 * straight to the session check, which runs on every call all the same: only the signature and passport's
 * authenticate chain are skipped, so an ended session, a disabled account or a changed role count at once.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: SessionAuthService,
    private readonly verified: PassportVerifiedTokens,
    private readonly apiKeys: ApiKeyAuthService,
  ) {
    super();
  }

  override canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const access = accessOf(this.reflector, context);
    if (!access || access.kind === 'roles') {
      const req = context.switchToHttp().getRequest<Request>();
      const token = bearer(req.headers.authorization);
      if (token !== undefined && isApiKey(token)) return this.apiKey(req, token, access);
      return this.signedIn(context, 'user');
    }
    if (access.kind === 'public' && access.session === 'optional') return this.optionalSession(context);
    return true;
  }

  /** The caller under `property`: through the session check alone for a token passport-jwt verified, else passport. */
  private async signedIn(context: ExecutionContext, property: 'user' | typeof OPTIONAL_CALLER): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const token = bearer(req.headers.authorization);
    if (token === undefined || !this.verified.verified(token)) return super.canActivate(context) as Promise<boolean>;
    const signedIn = await this.auth.authenticate(token, originOf(req));
    req[property] = signedIn.user;
    req.profile = signedIn.profile;
    if (signedIn.user.support) enterSupportSession(signedIn.user.id, signedIn.user.support);
    return true;
  }

  /** An organisation API key as the caller, within its scopes. */
  private async apiKey(req: Request, key: string, access: AccessRule | undefined): Promise<boolean> {
    const caller = await this.apiKeys.authenticate(key, originOf(req));
    if (!apiKeyMayCall(access, caller.apiKey!.scopes, req))
      throw AppException.forbidden(API_KEY_MESSAGES.INSUFFICIENT_SCOPE, ERROR_CODES.INSUFFICIENT_SCOPE);
    req.user = caller;
    return true;
  }

  private async optionalSession(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!req.headers.authorization) return true;
    try {
      await this.signedIn(context, OPTIONAL_CALLER);
    } catch (e) {
      // No valid session: the route answers as to anyone.
      if (!(e instanceof AppException)) throw e;
    }
    return true;
  }

  /** On an optional-session route the caller goes to `OPTIONAL_CALLER`, not `req.user` (which the rate limiter reads). */
  override getAuthenticateOptions(context: ExecutionContext): AuthGuardAuthenticateOptions | undefined {
    return accessOf(this.reflector, context)?.kind === 'public' ? { property: OPTIONAL_CALLER } : undefined;
  }

  /**
   * An error of the session check (an AppException) goes out as it is. When passport-jwt refuses on its own (no
   * token, a malformed one, a bad signature), the session check is asked for its answer to the same header, so
   * the status, code and message are the ones it gives everywhere else.
   */
  override handleRequest<T = AuthUser>(err: unknown, user: T | false, _info: unknown, context: ExecutionContext): T {
    if (err) throw err;
    if (user) {
      const caller = user as unknown as AuthUser;
      if (caller.support) enterSupportSession(caller.id, caller.support);
      return user;
    }
    // @nestjs/passport resolves the guard with what this returns, so the promise's rejection is the answer.
    return this.refusal(context) as T;
  }

  private async refusal(context: ExecutionContext): Promise<never> {
    const req = context.switchToHttp().getRequest<Request>();
    await this.auth.authenticateHeader(req.headers.authorization, originOf(req));
    // The session check accepted what passport-jwt refused: refused all the same, as a missing token is.
    throw AppException.unauthorized();
  }
}

interface Request {
  headers: Record<string, string | undefined>;
  body?: unknown;
  query?: unknown;
  params?: unknown;
  /** The client address as `clientAddress` (platform/web/http/client-address.ts) decides it, behind proxies or not. */
  ip?: string;
  user?: AuthUser;
  optionalCaller?: AuthUser;
  profile?: unknown;
}
