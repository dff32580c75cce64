import { JwtService } from '@nestjs/jwt';
import { hmacKey } from '../../platform/crypto/secrets';
import { AppConfig } from '../../platform/config/env.validation';
import { LIFETIMES } from '../../shared/limits';
import { TokenService, VERIFIED_TOKENS_MAX } from './token.service';
import { testSecret } from '../../../test/utils/secrets';

describe('TokenService.verifyAccessToken', () => {
  const jwt = new JwtService({
    secret: hmacKey(testSecret('jwt')),
    signOptions: { algorithm: 'HS256' },
    verifyOptions: { algorithms: ['HS256'] },
  });
  const tokens = () => new TokenService(jwt, { publicUrl: 'http://localhost:3000' } as AppConfig);
  afterEach(() => jest.restoreAllMocks());

  it('checks a signature once, and still refuses the token from the second its lifetime ends', () => {
    const service = tokens();
    const verify = jest.spyOn(jwt, 'verify');
    const token = service.signAccess(7, 'session-7');
    const first = service.verifyAccessToken(token);
    expect(first).toMatchObject({ sub: 7, sid: 'session-7', typ: 'access' });
    expect(service.verifyAccessToken(token)).toBe(first);
    expect(verify).toHaveBeenCalledTimes(1);

    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(first.exp * 1000 - 1);
    expect(service.verifyAccessToken(token)).toBe(first);
    jest.spyOn(Date, 'now').mockReturnValue(first.exp * 1000);
    expect(() => service.verifyAccessToken(token)).toThrow('jwt expired');
    // Forgotten once expired: asked again, jsonwebtoken says the same.
    expect(() => service.verifyAccessToken(token)).toThrow('jwt expired');
    expect(first.exp - Math.floor(now / 1000)).toBe(LIFETIMES.ACCESS_TOKEN_SECONDS);
  });

  it('never takes a token for one it checked: a changed signature, payload or type is refused', () => {
    const service = tokens();
    const token = service.signAccess(7, 'session-7');
    service.verifyAccessToken(token);
    const [header, payload, signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ sub: 8, sid: 'session-7', typ: 'access', exp: 9e9 })).toString(
      'base64url',
    );
    for (const forged of [`${header}.${payload}.${signature.slice(0, -2)}AA`, `${header}.${other}.${signature}`])
      expect(() => service.verifyAccessToken(forged)).toThrow();
    expect(() => service.verifyAccessToken(service.signChallenge(7, 'mfa'))).toThrow();
    expect(() => service.verifyAccessToken(undefined)).toThrow();
  });

  it(`keeps at most ${VERIFIED_TOKENS_MAX} tokens, the oldest going first`, () => {
    const service = tokens();
    const verify = jest.spyOn(jwt, 'verify');
    const first = service.signAccess(1, 'session-first');
    service.verifyAccessToken(first);
    for (let i = 0; i < VERIFIED_TOKENS_MAX; i++) service.verifyAccessToken(service.signAccess(2, `session-${i}`));
    verify.mockClear();
    service.verifyAccessToken(first);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
