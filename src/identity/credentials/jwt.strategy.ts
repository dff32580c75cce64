import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AuthUser } from '../../platform/web/auth-user';
import { hmacKey } from '../../platform/crypto/secrets';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { PassportVerifiedTokens } from './passport-verified-tokens';
import { originOf, SessionAuthService } from './session-auth.service';
import { bearer } from './token.service';

const fromHeader = ExtractJwt.fromAuthHeaderAsBearerToken();

/**
 * Bearer authentication of HTTP calls as a passport-jwt strategy: passport-jwt reads the token and checks its
 * HS256 signature with the key the JwtModule signs with; `validate` hands over to the one session check
 * (SessionAuthService.authenticate), which the notifications socket and GET /auth/status use too. Expiry is left
 * to that check (`ignoreExpiration`), so an expired token keeps its own answer (403 'jwt expired'), which the
 * client answers by refreshing. The header is read again by the session check's own rule, so a header passport-jwt
 * would read more loosely ("Bearer <token> more") is refused as before. A token it verified and the session check
 * accepted is remembered (PassportVerifiedTokens) until its expiry, for the guard to skip the signature next time.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly auth: SessionAuthService,
    private readonly verified: PassportVerifiedTokens,
  ) {
    super({
      jwtFromRequest: fromHeader,
      // The JwtModule's key. @types/passport-jwt names string | Buffer, but jsonwebtoken 9 takes a KeyObject as it
      // is, where it would import a string or Buffer again on every verify.
      secretOrKey: hmacKey(config.jwtSecret) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: true,
      passReqToCallback: true,
    });
  }

  /** The caller (`req.user`, `@CurrentUser()`), and their profile on the request (`@CurrentProfile()`). */
  async validate(req: Request & { profile?: unknown }): Promise<AuthUser> {
    const token = bearer(req.headers.authorization);
    const signedIn = await this.auth.authenticate(token, originOf(req));
    // The same string passport-jwt verified (it reads the header more loosely, never differently when both read one).
    if (token === fromHeader(req)) this.verified.remember(token, signedIn.exp);
    req.profile = signedIn.profile;
    return signedIn.user;
  }
}
