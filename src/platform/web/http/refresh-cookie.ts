import { CookieOptions, Response } from 'express';
import { LIFETIMES } from '../../../shared/limits';
import { SESSION_HINT_COOKIE } from '../../../shared/identity/session-hint';

/** The refresh token travels only in this cookie, only to /refresh (docs/product-rules.md §3). */
export const REFRESH_COOKIE = 'refreshToken';

function options(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: '/refresh' };
}

/**
 * The refresh cookie's readable shadow: `1` while a refresh cookie was set, so a page can tell without a
 * call whether asking /refresh for a session is worth it (an anonymous visit then makes no call that can
 * only answer 401). It carries nothing secret; the refresh cookie alone proves the session.
 */
function hintOptions(secure: boolean): CookieOptions {
  return { httpOnly: false, sameSite: 'strict', secure, path: '/' };
}

/**
 * The same session for the portal's OpenID provider: its sign-in at /oidc reads (never uses) the current refresh
 * token, so that an application opened in a signed-in browser needs no second sign-in (docs/oidc-provider.md). Lax,
 * because an application sends the browser to /oidc/auth from its own site; only /oidc/ sees it, and nothing there
 * rotates or ends the session with it.
 */
export const OIDC_SESSION_COOKIE = 'portalSession';
function oidcOptions(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/oidc/' };
}

export function setRefreshCookie(res: Response, token: string, secure: boolean): void {
  const maxAge = LIFETIMES.REFRESH_TOKEN_SECONDS * 1000;
  res.cookie(REFRESH_COOKIE, token, { ...options(secure), maxAge });
  res.cookie(OIDC_SESSION_COOKIE, token, { ...oidcOptions(secure), maxAge });
  res.cookie(SESSION_HINT_COOKIE, '1', { ...hintOptions(secure), maxAge });
}

export function clearRefreshCookie(res: Response, secure: boolean): void {
  res.clearCookie(REFRESH_COOKIE, options(secure));
  res.clearCookie(OIDC_SESSION_COOKIE, oidcOptions(secure));
  res.clearCookie(SESSION_HINT_COOKIE, hintOptions(secure));
}
