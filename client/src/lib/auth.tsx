import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CurrentUserInfo } from '@shared/api-types';
import type { LogoutResult } from '@shared/identity/sso';
import { Role } from '@shared/roles';
import { api, MFA_ENROLMENT_EVENT, refreshAccessToken, SESSION_EXPIRED_EVENT, tokenStore } from './api';
import { queryKeys } from './query-keys';

import { forgetSignIn, mayHaveSession, storeSignIn } from './auth-storage';
import { SUPPORT_SESSION_EVENT, SupportSession, supportSessionStore } from './support-session';

interface AuthContextValue {
  token: string | null;
  /** True while the first visit without a token asks the server whether a session exists (the refresh cookie). */
  checking: boolean;
  isAuthenticated: boolean;
  user: CurrentUserInfo | undefined;
  userLoading: boolean;
  userError: unknown;
  roles: Role[];
  /** Stores the access token of a completed sign-in. */
  signIn: (accessToken: string) => void;
  /** Ends the session on the server and here; the reason is kept for the next page. */
  signOut: (reason?: string) => Promise<void>;
  /**
   * The server is about to end this session on purpose (a password change ends every session, this one
   * included): until `signOut` is called, an ended session does not sign out by itself, so the page can
   * show its message first. Answers the function that lifts the hold (the change failed).
   */
  holdSignOut: () => () => void;
  /** The support-access session this tab acts in (as `user`), or null: the account's own session. */
  supportSession: SupportSession | null;
  /** Acts as the member in this tab, with the token of a started support access. */
  enterSupportSession: (session: SupportSession) => void;
  /** Stop: ends the support access on the server and returns this tab to the E-Support account's own session. */
  stopSupportSession: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => tokenStore.get());
  const [checking, setChecking] = useState(() => !tokenStore.get() && mayHaveSession());
  const held = useRef(false);
  const [supportSession, setSupportSession] = useState<SupportSession | null>(() => supportSessionStore.get());

  // Without a token the session may still live in the refresh cookie (a corporate login just landed,
  // or local storage was cleared): ask once, silently, when the server's hint says there is one.
  useEffect(() => {
    if (!checking) return;
    let cancelled = false;
    refreshAccessToken()
      .then((fresh) => !cancelled && fresh && setToken(fresh))
      .finally(() => !cancelled && setChecking(false));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const userQuery = useQuery({
    queryKey: [...queryKeys.currentUser, token],
    queryFn: () => api.get<CurrentUserInfo>('api/users/current'),
    enabled: !!token,
    staleTime: 60_000,
    retry: false,
  });

  const clearLocal = useCallback(
    (reason?: string) => {
      forgetSignIn(reason);
      setToken(null);
      queryClient.clear();
    },
    [queryClient],
  );

  useEffect(() => {
    const expired = () => {
      // A support-access session that ended returns the tab to the E-Support account's own session.
      if (supportSessionStore.get()) supportSessionStore.clear();
      else if (!held.current) clearLocal('Session expired');
    };
    // Another tab signed in or out: follow it.
    const storage = (e: StorageEvent) => {
      if (e.key === null || e.key === 'accessToken') setToken(tokenStore.get());
    };
    // The organisation began to require a second factor: the profile read again says so, and RequireAuth takes
    // the user to the enrolment.
    const mustEnrol = () => void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    // Entering or leaving a support-access session changes who every call is: nothing read before holds.
    const supportChanged = () => {
      setSupportSession(supportSessionStore.get());
      setToken(tokenStore.get());
      queryClient.clear();
    };
    window.addEventListener(SUPPORT_SESSION_EVENT, supportChanged);
    window.addEventListener(SESSION_EXPIRED_EVENT, expired);
    window.addEventListener(MFA_ENROLMENT_EVENT, mustEnrol);
    window.addEventListener('storage', storage);
    return () => {
      window.removeEventListener(SESSION_EXPIRED_EVENT, expired);
      window.removeEventListener(MFA_ENROLMENT_EVENT, mustEnrol);
      window.removeEventListener(SUPPORT_SESSION_EVENT, supportChanged);
      window.removeEventListener('storage', storage);
    };
  }, [clearLocal, queryClient]);

  const signIn = useCallback((accessToken: string) => {
    storeSignIn(accessToken);
    setToken(accessToken);
  }, []);

  const enterSupportSession = useCallback((session: SupportSession) => supportSessionStore.set(session), []);

  const stopSupportSession = useCallback(async () => {
    const current = supportSessionStore.get();
    // Back to the E-Support account's own session first: the end is asked with its own token.
    supportSessionStore.clear();
    if (!current) return;
    try {
      await api.delete(`api/support-access/${current.id}`);
    } catch {
      // Already ended (its 60 minutes, a site admin): nothing is left to stop.
    }
  }, []);

  const signOut = useCallback(
    async (reason?: string) => {
      // In a support-access session, leaving it is the way out: the E-Support account's own session stays.
      if (supportSessionStore.get()) return stopSupportSession();
      let logoutUrl: string | undefined;
      try {
        ({ logoutUrl } = await api.post<LogoutResult>('auth/logout'));
      } catch {
        // The session may already be gone on the server; signing out here is what matters.
      }
      held.current = false;
      clearLocal(reason);
      // A corporate sign-on session: the identity provider's session ends too, at the address the server gave.
      if (logoutUrl) window.location.assign(logoutUrl);
    },
    [clearLocal, stopSupportSession],
  );

  const holdSignOut = useCallback(() => {
    held.current = true;
    return () => {
      held.current = false;
    };
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      token,
      checking,
      isAuthenticated: !!token,
      user: userQuery.data,
      userLoading: userQuery.isLoading,
      userError: userQuery.error,
      roles: (userQuery.data?.roles ?? []).map((r) => r.roleId as Role),
      signIn,
      signOut,
      holdSignOut,
      supportSession,
      enterSupportSession,
      stopSupportSession,
    }),
    [
      token,
      checking,
      userQuery.data,
      userQuery.isLoading,
      userQuery.error,
      signIn,
      signOut,
      holdSignOut,
      supportSession,
      enterSupportSession,
      stopSupportSession,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside AuthProvider');
  return ctx;
}
