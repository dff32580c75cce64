import { ComponentType, ReactNode, useEffect, useState } from 'react';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { PROVIDER_SIGN_IN_PREFIX, safeReturnPath as sharedReturnPath } from '@shared/identity/return-path';
import { lastWorkingPath } from '@/lib/auth-storage';
import { signedInWithRecoveryCode } from '@/features/identity/mfa/light';
import { afterDiscovery, afterLoginError, initialLoginState, LoginState, secondFactorOf } from '../login-machine';
import { authApi } from '../api/auth-api';
import { RootStep, Spinner } from './RootStep';
import { LaterStepsModule, loadLaterSteps, showToast } from './later-steps';
import './login.css';

/**
 * Only a path of this origin (the one rule of src/shared/identity/return-path.ts, which the server applies too), and never the
 * login page itself: a crafted returnTo is simply ignored.
 */
export function safeReturnPath(value: string | null, origin = window.location.origin): string | null {
  const path = sharedReturnPath(value, origin);
  return path === null || /^\/login/i.test(path) ? null : path;
}

/**
 * Whether a destination is the server's rather than a page of the application: the OpenID provider's sign-in
 * (/oidc/…), which sends people here and takes them back. Going there is a full navigation, never a client route.
 */
export function isServerPath(path: string): boolean {
  return path.startsWith(PROVIDER_SIGN_IN_PREFIX);
}

/**
 * The start of a corporate sign-in (`/auth/sso…`), told to come back to the OpenID provider's sign-in the address's
 * returnTo names, if it names one: the round trip ends on the server, which takes the browser there.
 */
export function ssoStartUrl(url: string, params: URLSearchParams): string {
  const returnTo = safeReturnPath(params.get('returnTo'));
  if (!returnTo || !isServerPath(returnTo)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(returnTo)}`;
}

/** Whether the address asks for a fresh sign-in even with a session (an application's prompt=login or max_age). */
export function asksFreshSignIn(params: URLSearchParams): boolean {
  return params.get('prompt') === 'login';
}

/** Where a completed sign-in goes: the returnTo of the address, else the last page worked on, else home. */
export function destinationAfterSignIn(params: URLSearchParams): string {
  return safeReturnPath(params.get('returnTo')) ?? safeReturnPath(lastWorkingPath.get()) ?? '/';
}

export interface LoginCardProps {
  params: URLSearchParams;
  /** A completed sign-in: its access token and where to go. */
  onSignedIn: (accessToken: string, destination: string) => void;
  /** After the forced password change: the session ends, the reason kept for the next page. */
  onSignOut: (reason: string) => Promise<void>;
  /**
   * On the page of its own (no application around it): the Chakra provider the later steps and the toasts
   * render in, loaded with them. Inside the application the application's provider serves.
   */
  provider?: () => Promise<ComponentType<{ children?: ReactNode }>>;
}

interface Later {
  steps: LaterStepsModule;
  Provider?: ComponentType<{ children?: ReactNode }>;
}

/** The steps after the e-mail, loaded on the first touch of the card or once a step `needed` them. */
function useLaterSteps(provider: LoginCardProps['provider'], needed: boolean) {
  const [later, setLater] = useState<Later | null>(null);
  const [touched, setTouched] = useState(false);
  const wanted = touched || needed;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void Promise.all([loadLaterSteps(), provider?.()]).then(
      ([steps, Provider]) => live && setLater({ steps, Provider }),
    );
    return () => {
      live = false;
    };
  }, [wanted, provider]);
  return { later, want: () => setTouched(true) };
}

/** Spec 000 §2 'Login page': a 450 px card with the product logo and one of four steps. */
export function LoginCard({ params, onSignedIn, onSignOut, provider }: LoginCardProps) {
  const [login, setLogin] = useState<LoginState>(initialLoginState);
  const [busy, setBusy] = useState(false);
  const [inlineError, setInlineError] = useState<string | null>(null);
  const needsLater = login.state !== 'ROOT';
  const { later, want } = useLaterSteps(provider, needsLater);

  // A corporate login that did not succeed comes back here with the reason, shown in the card.
  const ssoError = params.get('ssoError');
  const update = (patch: Partial<LoginState>) => setLogin((s) => ({ ...s, ...patch }));

  /** After the ROOT step: the e-mail's own identity provider, if its organisation has one, else the password. */
  async function discover(state: LoginState) {
    setBusy(true);
    const found = await authApi.discover(state.username.trim()).catch(() => null);
    setBusy(false);
    const start = found?.url ? { ...found, url: ssoStartUrl(found.url, params) } : found;
    setLogin((s) => (s.state === 'ROOT' ? afterDiscovery(s, start) : s));
  }

  /** `passkey`: in the ROOT step a password-less sign-in, in the MFA step the second factor. */
  async function submitLogin(state: LoginState, passkey?: AuthenticationResponseJSON) {
    setBusy(true);
    setInlineError(null);
    try {
      const res = await authApi.login(
        passkey && state.state === 'ROOT'
          ? { acceptToS: state.acceptToS, passkey }
          : {
              username: state.username.trim(),
              password: state.password,
              acceptToS: state.acceptToS,
              ...(state.state === 'MFA' ? secondFactorOf(state, passkey) : {}),
            },
        state.state === 'MFA' ? state.challengeToken : undefined,
      );
      // After a recovery code, how many are left.
      if (typeof res.recoveryCodesLeft === 'number') showToast(signedInWithRecoveryCode(res.recoveryCodesLeft), 10_000);
      onSignedIn(res.accessToken, destinationAfterSignIn(params));
    } catch (error) {
      const { next, toast, inline, redirect } = afterLoginError(state, error);
      setLogin(redirect && next.sso ? { ...next, sso: { ...next.sso, url: ssoStartUrl(next.sso.url, params) } } : next);
      if (toast) showToast(toast);
      setInlineError(inline ?? null);
      if (redirect) window.location.assign(ssoStartUrl(redirect, params));
    } finally {
      setBusy(false);
    }
  }

  const Provider = later?.Provider;
  const steps = later && needsLater && (
    <later.steps.LaterSteps
      login={login}
      update={update}
      setLogin={setLogin}
      busy={busy}
      error={inlineError}
      onSubmit={() => submitLogin({ ...login })}
      onPasskey={(passkey) => submitLogin({ ...login }, passkey)}
      onPasskeyError={setInlineError}
      onSignOut={onSignOut}
    />
  );

  return (
    <main className="lp-page" onPointerDownCapture={want} onKeyDownCapture={want} onFocusCapture={want}>
      <div className="lp-card" data-testid="login-card" data-step={login.state}>
        <div className="lp-card-header">
          <img className="lp-logo" src="/logo.svg" alt="Tax Portal" width={56} height={56} />
          <h1 className="lp-title">Tax Portal</h1>
        </div>
        <div className="lp-card-body">
          {login.state === 'ROOT' ? (
            <RootStep
              login={login}
              update={update}
              ssoError={ssoError}
              ssoStart={() => ssoStartUrl('/auth/sso', params)}
              passkey={{
                busy,
                error: inlineError,
                onAssertion: (passkey) => submitLogin({ ...login }, passkey),
                onError: setInlineError,
              }}
              busy={busy}
              onNext={() => discover(login)}
            />
          ) : !steps ? (
            <div className="lp-pending" role="status" aria-label="Loading">
              <Spinner />
            </div>
          ) : Provider ? (
            <Provider>{steps}</Provider>
          ) : (
            steps
          )}
        </div>
      </div>
      {Provider && later && (
        <Provider>
          <later.steps.Toaster />
        </Provider>
      )}
    </main>
  );
}
