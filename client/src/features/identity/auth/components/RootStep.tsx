import { useEffect, useId, useRef, useState } from 'react';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { AppInfo } from '@shared/api-types';
import { api } from '@/lib/api';
import { paths } from '@/config/paths';
import { browserCeremonyError, PASSKEY_TEXTS, passkeysApi } from '@/features/identity/passkeys/light';
import { MESSAGES, validateLoginEmail } from '../login-validation';
import type { StepProps } from './login-step';

/** Passkeys: the password-less sign-in of the ROOT step. */
interface PasskeySignIn {
  busy: boolean;
  error: string | null;
  onAssertion: (p: AuthenticationResponseJSON) => void;
  onError: (message: string) => void;
}

/** Whether the deployment offers Corporate Login (GET api/app-info). */
function useSsoEnabled(): boolean {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let live = true;
    api.get<AppInfo>('api/app-info').then(
      (info) => live && setEnabled(!!info.ssoEnabled),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return enabled;
}

export function Spinner() {
  return <span className="lp-spinner" aria-hidden="true" />;
}

/**
 * ROOT: terms, e-mail, Login; 'OR'; Corporate Login when SSO is configured. Plain elements and the card's
 * stylesheet: this is what the page shows before anyone touches it, so it carries no component library.
 */
export function RootStep({
  login,
  update,
  onNext,
  ssoError,
  ssoStart = () => '/auth/sso',
  passkey,
  busy,
}: StepProps & {
  onNext: () => void;
  ssoError?: string | null;
  /**
   * Where Corporate Login starts (with the OpenID provider's return path when the card was sent one), read on the
   * click: the card is also rendered ahead of time, where there is no address.
   */
  ssoStart?: () => string;
  passkey?: PasskeySignIn;
  busy?: boolean;
}) {
  const [touched, setTouched] = useState(false);
  const [termsHint, setTermsHint] = useState(false);
  const [asking, setAsking] = useState(false);
  const sso = useSsoEnabled();
  const id = useId();
  const termsBox = useRef<HTMLInputElement>(null);
  // The card is on screen before its script (scripts/prerender-login.mjs): a tick given before the script hydrated
  // it is in the box, not in the state. The state takes it over once, so the e-mail field opens as the box says.
  useEffect(() => {
    const box = termsBox.current;
    if (box && box.checked !== login.acceptToS) update({ acceptToS: box.checked });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const emailError = validateLoginEmail(login.username);
  const canLogin = login.acceptToS && !emailError;
  const showTermsHint = termsHint && !login.acceptToS;
  const showEmailError = touched && !!emailError && login.acceptToS;
  // A disabled control swallows clicks: the wrapper explains why it is disabled.
  const explain = () => !login.acceptToS && setTermsHint(true);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!login.acceptToS) return setTermsHint(true);
    setTouched(true);
    if (canLogin) onNext();
  };

  async function askPasskey() {
    if (!passkey) return;
    setAsking(true);
    try {
      passkey.onAssertion(await passkeysApi.assert());
    } catch (e) {
      passkey.onError(browserCeremonyError(e) ?? `Sorry, an error occurred. ${(e as Error).message}`);
    } finally {
      setAsking(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <div className="lp-stack">
        <div className="lp-field">
          <label className="lp-check">
            <input
              ref={termsBox}
              type="checkbox"
              data-testid="terms-checkbox"
              checked={login.acceptToS}
              aria-invalid={showTermsHint || undefined}
              aria-describedby={showTermsHint ? `${id}-terms` : undefined}
              onChange={(e) => {
                update({ acceptToS: e.target.checked });
                setTermsHint(false);
              }}
            />
            <span>
              I agree to the{' '}
              <a className="lp-link" href={paths.terms} target="_blank" rel="noopener">
                Terms and Conditions
              </a>
            </span>
          </label>
          {showTermsHint && (
            <div className="lp-error" id={`${id}-terms`}>
              {MESSAGES.TERMS_REQUIRED}
            </div>
          )}
        </div>

        <div className="lp-field">
          <label className="lp-label" htmlFor={`${id}-email`}>
            Email
          </label>
          <div onClick={explain}>
            <input
              id={`${id}-email`}
              className="lp-input"
              name="username"
              // 'username' is a token of text inputs (HTML's autofill table); the keyboard is still the e-mail one.
              type="text"
              inputMode="email"
              spellCheck={false}
              autoCapitalize="none"
              autoComplete="username"
              maxLength={150}
              disabled={!login.acceptToS}
              aria-invalid={showEmailError || undefined}
              aria-describedby={showEmailError ? `${id}-email-error` : undefined}
              value={login.username}
              onChange={(e) => update({ username: e.target.value })}
              onBlur={() => setTouched(true)}
            />
          </div>
          {showEmailError && (
            <div className="lp-error" id={`${id}-email-error`}>
              {emailError}
            </div>
          )}
        </div>

        <div onClick={explain}>
          <button
            type="submit"
            className="lp-button lp-solid"
            disabled={!canLogin || busy}
            aria-busy={busy || undefined}
          >
            {busy ? <Spinner /> : null}
            Login
          </button>
        </div>

        {/* Passkeys: the terms apply as to Login. */}
        {passkey && (
          <>
            <div onClick={explain}>
              <button
                type="button"
                className="lp-button lp-outline"
                data-testid="passkey-button"
                disabled={!login.acceptToS || passkey.busy || asking}
                onClick={() => void askPasskey()}
              >
                {asking ? <Spinner /> : null}
                {PASSKEY_TEXTS.SIGN_IN}
              </button>
            </div>
            {passkey.error && (
              <div className="lp-alert" role="alert" data-testid="passkey-error">
                {passkey.error}
              </div>
            )}
          </>
        )}

        {sso && (
          <>
            <div className="lp-or">OR</div>
            <button type="button" className="lp-button lp-outline" onClick={() => (window.location.href = ssoStart())}>
              Corporate Login
            </button>
            {ssoError && (
              <div className="lp-alert" role="alert" data-testid="sso-error">
                Sorry, an error occurred. {ssoError}
              </div>
            )}
          </>
        )}
      </div>
    </form>
  );
}
