import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SignInChallenge } from '../../platform/web/decorators/current-user.decorator';
import { TokenService } from '../credentials/token.service';
import { accessOf } from '../../platform/web/decorators/access.decorators';

/**
 * Verifies the challenge token of an `@Access.challenge(step)` route (`Authorization: Bearer <token>`): its
 * signature, expiry (403 'jwt expired') and step. A required one that is missing or not valid is refused here; an
 * optional one is refused by nothing here, and `@CurrentChallenge()` hands the outcome over: whether one came, and
 * whose it is or why it is refused, for the step that needs it (the MFA step of POST /auth/login asks only once the
 * password is right and a second factor came). Runs after the rate limiter, so every attempt counts.
 */
@Injectable()
export class ChallengeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const access = accessOf(this.reflector, context);
    if (access?.kind !== 'challenge') return true;
    const req = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined>; challenge?: SignInChallenge }>();
    const authorization = req.headers.authorization;
    const verify = () => this.tokens.verifyChallenge(authorization, access.step);
    if (!access.optional) {
      const userId = verify();
      req.challenge = { given: true, userId: () => userId };
      return true;
    }
    // Optional: verified when the step asks for it (most sign-ins come without one, and need no refusal made).
    let verified: { userId: number } | { refusal: unknown } | undefined;
    req.challenge = {
      given: !!authorization,
      userId: () => {
        if (!verified) {
          try {
            verified = { userId: verify() };
          } catch (e) {
            verified = { refusal: e };
          }
        }
        if ('refusal' in verified) throw verified.refusal;
        return verified.userId;
      },
    };
    return true;
  }
}
