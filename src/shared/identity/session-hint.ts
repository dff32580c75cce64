/**
 * A readable cookie set beside the refresh cookie and cleared with it: while it is present the page asks
 * /refresh for a session, while it is absent it does not (the refresh cookie itself is HttpOnly).
 */
export const SESSION_HINT_COOKIE = 'signedIn';

/** Whether the page's cookies (`document.cookie`) carry the hint. */
export function hasSessionHint(cookies: string): boolean {
  return cookies.split(';').some((c) => c.trim() === `${SESSION_HINT_COOKIE}=1`);
}
