import { hasSessionHint } from '@shared/identity/session-hint';
import { tokenStore } from './api';

export const LAST_WORKING_PATH_KEY = 'lastWorkingPath';
export const LOGOUT_REASON_KEY = 'logoutReason';
/** Fired after every successful sign-in (spec 000 §4). */
export const LOGIN_SUCCESS_EVENT = 'login-success';

export const lastWorkingPath = {
  get: () => localStorage.getItem(LAST_WORKING_PATH_KEY),
  set: (path: string) => localStorage.setItem(LAST_WORKING_PATH_KEY, path),
};

/** Keeps the access token of a completed sign-in and announces it. */
export function storeSignIn(accessToken: string): void {
  tokenStore.set(accessToken);
  sessionStorage.removeItem(LOGOUT_REASON_KEY);
  window.dispatchEvent(new Event(LOGIN_SUCCESS_EVENT));
}

/** Forgets the access token here; the reason is kept for the next page. */
export function forgetSignIn(reason?: string): void {
  tokenStore.clear();
  if (reason) sessionStorage.setItem(LOGOUT_REASON_KEY, reason);
}

/**
 * Whether a session may live in the refresh cookie (which the page cannot read): the server sets a readable
 * hint beside it. Without the hint a visit asks nothing, so an anonymous visit makes no call that fails.
 */
export function mayHaveSession(): boolean {
  return hasSessionHint(document.cookie);
}
