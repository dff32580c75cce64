import { CookieOptions, Response } from 'express';
import { LIFETIMES } from '../../shared/limits';

/** The refresh token travels only in this cookie, only to /refresh (CONTRACT 3). */
export const REFRESH_COOKIE = 'refreshToken';

function options(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: '/refresh' };
}

export function setRefreshCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(REFRESH_COOKIE, token, { ...options(secure), maxAge: LIFETIMES.REFRESH_TOKEN_SECONDS * 1000 });
}

export function clearRefreshCookie(res: Response, secure: boolean): void {
  res.clearCookie(REFRESH_COOKIE, options(secure));
}
