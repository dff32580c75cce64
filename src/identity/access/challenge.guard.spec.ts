import { Controller, ExecutionContext, Get, HttpStatus } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { AppException } from '../../platform/web/app.exception';
import { hmacKey } from '../../platform/crypto/secrets';
import { Access } from '../../platform/web/decorators/access.decorators';
import { SignInChallenge } from '../../platform/web/decorators/current-user.decorator';
import { AppConfig } from '../../platform/config/env.validation';
import { TokenService } from '../credentials/token.service';
import { LIFETIMES } from '../../shared/limits';
import { Role } from '../../shared/roles';
import { ChallengeGuard } from './challenge.guard';
import { testSecret } from '../../../test/utils/secrets';

@Controller()
class Sample {
  @Get() @Access.challenge('mfa') mfa() {}
  @Get() @Access.challenge('change-password') changePassword() {}
  @Get() @Access.challenge('mfa', { optional: true }) firstStep() {}
  @Get() @Access({ roles: [Role.SITE_ADMIN] }) signedIn() {}
  @Get() @Access.public() open() {}
}

const jwtOf = (secret: string) =>
  new JwtService({
    secret: hmacKey(secret),
    signOptions: { algorithm: 'HS256' },
    verifyOptions: { algorithms: ['HS256'] },
  });
const jwt = jwtOf(testSecret('jwt'));
const tokens = new TokenService(jwt, { publicUrl: 'http://localhost:3000' } as AppConfig);
const guard = new ChallengeGuard(new Reflector(), tokens);

type Req = { headers: Record<string, string | undefined>; challenge?: SignInChallenge };

function run(handler: keyof Sample, authorization?: string, type = 'http'): { allowed: boolean; req: Req } {
  const req: Req = { headers: authorization === undefined ? {} : { authorization } };
  const context = {
    getType: () => type,
    getHandler: () => Sample.prototype[handler],
    getClass: () => Sample,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  return { allowed: guard.canActivate(context), req };
}

/** The AppException `fn` throws. */
function refusal(fn: () => unknown): AppException {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppException);
    return e as AppException;
  }
  throw new Error('not refused');
}

const bearer = (token: string) => `Bearer ${token}`;
const MISSING = 'This step needs the challenge token of the previous sign-in step.';
const NOT_VALID = 'The sign-in challenge is not valid. Please log in again.';
const OTHER_STEP = 'The sign-in challenge is not valid for this step. Please log in again.';

describe('ChallengeGuard', () => {
  afterEach(() => jest.restoreAllMocks());

  it('leaves routes without a challenge, and anything but HTTP, to the other guards', () => {
    expect(run('signedIn').allowed).toBe(true);
    expect(run('open', 'Bearer nonsense').allowed).toBe(true);
    expect(run('signedIn').req.challenge).toBeUndefined();
    expect(run('mfa', undefined, 'ws').allowed).toBe(true);
  });

  it("accepts the step's own challenge token and hands over whose it is", () => {
    for (const [handler, step] of [
      ['mfa', 'mfa'],
      ['changePassword', 'change-password'],
    ] as const) {
      const { allowed, req } = run(handler, bearer(tokens.signChallenge(42, step)));
      expect(allowed).toBe(true);
      expect(req.challenge!.given).toBe(true);
      expect(req.challenge!.userId()).toBe(42);
    }
    // The scheme is read as the session check reads it: any case, any white space before the token.
    expect(run('mfa', `bearer   ${tokens.signChallenge(7, 'mfa')}`).req.challenge!.userId()).toBe(7);
  });

  describe('a required challenge', () => {
    it('refuses a missing token or a header that is not "Bearer <token>"', () => {
      for (const header of [undefined, '', 'Bearer', 'Basic abc', `Bearer ${tokens.signChallenge(1, 'mfa')} more`]) {
        const e = refusal(() => run('mfa', header));
        expect(e.getStatus()).toBe(HttpStatus.UNAUTHORIZED);
        expect(e.message).toBe(MISSING);
      }
    });

    it('refuses a token that is not a valid signed token: malformed, tampered, another key, unsigned', () => {
      const token = tokens.signChallenge(42, 'mfa');
      const [header, payload, signature] = token.split('.');
      const forged = Buffer.from(JSON.stringify({ sub: 43, typ: 'challenge', pur: 'mfa', exp: 9e9 })).toString(
        'base64url',
      );
      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const middle = Math.floor(signature.length / 2);
      for (const bad of [
        'not-a-token',
        `${header}.${payload}.${signature.slice(0, middle)}${signature[middle] === 'A' ? 'B' : 'A'}${signature.slice(middle + 1)}`,
        `${header}.${forged}.${signature}`,
        jwtOf(testSecret('other-jwt')).sign({ sub: 42, typ: 'challenge', pur: 'mfa' }),
        `${none}.${payload}.`,
      ]) {
        const e = refusal(() => run('mfa', bearer(bad)));
        expect(e.getStatus()).toBe(HttpStatus.UNAUTHORIZED);
        expect(e.message).toBe(NOT_VALID);
      }
    });

    it("refuses another step's challenge token and an access token", () => {
      for (const [handler, token] of [
        ['mfa', tokens.signChallenge(42, 'change-password')],
        ['changePassword', tokens.signChallenge(42, 'mfa')],
        ['mfa', tokens.signAccess(42, 'session-42')],
        ['changePassword', tokens.signAccess(42, 'session-42')],
      ] as const) {
        const e = refusal(() => run(handler, bearer(token)));
        expect(e.getStatus()).toBe(HttpStatus.UNAUTHORIZED);
        expect(e.message).toBe(OTHER_STEP);
      }
    });

    it("refuses an expired token with the spec's 403 'jwt expired', from the second its lifetime ends", () => {
      // Signed at a fixed instant, so no second can tick between the signing and the reading of the clock.
      const signedAt = Math.floor(Date.now() / 1000) * 1000 + 500;
      jest.spyOn(Date, 'now').mockReturnValue(signedAt);
      const token = tokens.signChallenge(42, 'mfa');
      const exp = jwt.decode<{ exp: number }>(token).exp;
      expect(exp * 1000 - (signedAt - 500)).toBe(LIFETIMES.CHALLENGE_TOKEN_SECONDS * 1000);
      jest.spyOn(Date, 'now').mockReturnValue(exp * 1000 - 1);
      expect(run('mfa', bearer(token)).req.challenge!.userId()).toBe(42);
      jest.spyOn(Date, 'now').mockReturnValue(exp * 1000);
      const e = refusal(() => run('mfa', bearer(token)));
      expect(e.getStatus()).toBe(HttpStatus.FORBIDDEN);
      expect(e.message).toBe('jwt expired');
      expect(e.code).toBe('JWT_EXPIRED');
    });
  });

  describe('an optional challenge', () => {
    it('lets the call through without one, and says none was given', () => {
      const { allowed, req } = run('firstStep');
      expect(allowed).toBe(true);
      expect(req.challenge!.given).toBe(false);
      expect(refusal(() => req.challenge!.userId()).message).toBe(MISSING);
    });

    it('lets the call through with a bad, expired or wrong-step one, and keeps its refusal for the step that asks', () => {
      const token = tokens.signChallenge(42, 'mfa');
      const exp = jwt.decode<{ exp: number }>(token).exp;
      for (const [header, status, message] of [
        [bearer('not-a-token'), HttpStatus.UNAUTHORIZED, NOT_VALID],
        [bearer(tokens.signChallenge(42, 'change-password')), HttpStatus.UNAUTHORIZED, OTHER_STEP],
        [bearer(tokens.signAccess(42, 'session-42')), HttpStatus.UNAUTHORIZED, OTHER_STEP],
        ['Basic abc', HttpStatus.UNAUTHORIZED, MISSING],
      ] as const) {
        const { allowed, req } = run('firstStep', header);
        expect(allowed).toBe(true);
        expect(req.challenge!.given).toBe(true);
        const e = refusal(() => req.challenge!.userId());
        expect([e.getStatus(), e.message]).toEqual([status, message]);
      }
      jest.spyOn(Date, 'now').mockReturnValue(exp * 1000);
      const expired = run('firstStep', bearer(token));
      expect(expired.allowed).toBe(true);
      expect(refusal(() => expired.req.challenge!.userId()).getStatus()).toBe(HttpStatus.FORBIDDEN);
    });

    it('hands over whose a valid one is', () => {
      const { req } = run('firstStep', bearer(tokens.signChallenge(42, 'mfa')));
      expect(req.challenge!.given).toBe(true);
      expect(req.challenge!.userId()).toBe(42);
    });
  });
});
