import type { SupportAccessParty } from '@shared/portal/support-access';

/**
 * A support-access session held in this tab (docs/support-access.md): the member's access token, kept in the tab's
 * session storage apart from the E-Support account's own token (local storage) and refresh cookie, which stay as
 * they were. Every call of the tab goes as the member until it ends; other tabs stay the E-Support account's.
 */
export interface SupportSession {
  id: number;
  accessToken: string;
  endsAt: string;
  member: SupportAccessParty;
  reason: string;
}

export const SUPPORT_SESSION_KEY = 'supportSession';
/** Fired when this tab enters or leaves a support-access session. */
export const SUPPORT_SESSION_EVENT = 'support-session-changed';

export const supportSessionStore = {
  get(): SupportSession | null {
    const raw = sessionStorage.getItem(SUPPORT_SESSION_KEY);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as SupportSession;
    } catch {
      sessionStorage.removeItem(SUPPORT_SESSION_KEY);
      return null;
    }
  },
  set(session: SupportSession): void {
    sessionStorage.setItem(SUPPORT_SESSION_KEY, JSON.stringify(session));
    window.dispatchEvent(new Event(SUPPORT_SESSION_EVENT));
  },
  clear(): void {
    if (sessionStorage.getItem(SUPPORT_SESSION_KEY) === null) return;
    sessionStorage.removeItem(SUPPORT_SESSION_KEY);
    window.dispatchEvent(new Event(SUPPORT_SESSION_EVENT));
  },
};
