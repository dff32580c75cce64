import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { AUTH_MESSAGES, ERROR_CODES } from '@shared/messages';
import { ApiError } from '@/lib/api';

/** The four steps of the login card (spec 000 §2, §4), and SSO: the e-mail's organisation has its own provider. */
export type LoginStep = 'ROOT' | 'PASSWORD' | 'MFA' | 'CHANGE_PASSWORD' | 'SSO';

/** The login state of spec 000 §3, plus the challenge token of the step in progress. */
export interface LoginState {
  state: LoginStep;
  username: string;
  password: string;
  acceptToS: boolean;
  mfaToken: string;
  mfaMessage: string;
  challengeToken?: string;
  // A recovery code in place of the MFA token, and "Don't ask again on this device".
  useRecoveryCode?: boolean;
  recoveryCode?: string;
  rememberDevice?: boolean;
  /** From the TOTP_REQUIRED answer (MFA_REMEMBER_DAYS); 0 hides the option. */
  rememberDeviceDays?: number;
  /** Passkeys: the account has a passkey, so the MFA step offers 'Use a passkey'. */
  passkeyOffered?: boolean;
  /** Discovery: where the e-mail's identity provider starts, and its name. */
  sso?: { url: string; name?: string };
}

export const initialLoginState: LoginState = {
  state: 'ROOT',
  username: '',
  password: '',
  acceptToS: false,
  mfaToken: '',
  mfaMessage: '',
};

export interface Toast {
  type: 'error' | 'warning' | 'success' | 'info';
  title: string;
  description?: string;
}

export const LOGIN_TEXTS = {
  WRONG_LOGIN: 'Your authentication information is incorrect. Please try again.',
  SESSION_EXPIRED: 'Session expired. Please relogin.',
  PASSWORD_CHANGED: 'Your password has been changed. Please log in again.',
  FORCED_CHANGE_LOGOUT_REASON: 'Logged out as password is forced changed',
  FORGOT_SENT: 'An email has been sent with instructions to reset your password.',
  MFA_EMAIL_SENT: 'MFA code has been sent to your email address.',
  MFA_EMAIL_FAILED: 'Failed to send code to email. Please try again.',
} as const;

/** The step a failed call leads to, and what the user is told (spec 000 §4, §8). */
export function afterLoginError(
  current: LoginState,
  error: unknown,
): { next: LoginState; toast?: Toast; inline?: string; redirect?: string } {
  const body =
    error instanceof ApiError ? error.body : { message: error instanceof Error ? error.message : String(error) };
  const message = body.message ?? '';

  if (body.code === ERROR_CODES.TOTP_REQUIRED) {
    return {
      next: {
        ...current,
        state: 'MFA',
        mfaMessage: message,
        mfaToken: '',
        challengeToken: body.challengeToken,
        useRecoveryCode: false,
        recoveryCode: '',
        rememberDevice: false,
        rememberDeviceDays: typeof body.rememberDeviceDays === 'number' ? body.rememberDeviceDays : 0,
        passkeyOffered: body.passkey === true,
      },
    };
  }
  // The organisation requires its single sign-on of this account: the card goes to its provider.
  if (body.code === ERROR_CODES.SSO_REQUIRED && typeof body.url === 'string' && /^\/(?!\/)/.test(body.url)) {
    return {
      next: { ...current, password: '', state: 'SSO', sso: { url: body.url } },
      toast: { type: 'info', title: message },
      redirect: body.url,
    };
  }
  if (body.code === ERROR_CODES.PASSWORD_CHANGE_REQUIRED) {
    return { next: { ...current, state: 'CHANGE_PASSWORD', challengeToken: body.challengeToken } };
  }
  if (message === AUTH_MESSAGES.INVALID_CREDENTIALS) {
    return {
      next: { ...initialLoginState, acceptToS: current.acceptToS, username: current.username },
      toast: { type: 'error', title: LOGIN_TEXTS.WRONG_LOGIN },
    };
  }
  if (message === AUTH_MESSAGES.JWT_EXPIRED) {
    return {
      next: { ...initialLoginState, acceptToS: current.acceptToS, username: current.username },
      toast: { type: 'warning', title: LOGIN_TEXTS.SESSION_EXPIRED },
    };
  }
  const credentialError = error instanceof ApiError && error.status === 401;
  if (current.state === 'MFA') {
    return {
      next: current,
      inline: credentialError ? `That doesn't look right: ${message}` : `Sorry, an error occurred. ${message}`,
    };
  }
  return {
    next: current,
    inline: credentialError ? `That doesn't look right. ${message}` : `Sorry, an error occurred. ${message}`,
  };
}

/**
 * After the ROOT step's e-mail: the organisation's provider when discovery names one, else the password step.
 * A failed discovery (an older server, a network error) falls back to the password step.
 */
export function afterDiscovery(
  current: LoginState,
  found: { sso?: boolean; url?: string; name?: string } | null,
): LoginState {
  const username = current.username.trim();
  if (found?.sso && found.url) return { ...current, username, state: 'SSO', sso: { url: found.url, name: found.name } };
  return { ...current, username, state: 'PASSWORD', sso: undefined };
}

/** What the MFA step sends, a TOTP (or e-mailed) code or a recovery code, and the trusted-device wish. */
export function secondFactorOf(
  state: LoginState,
  passkey?: AuthenticationResponseJSON,
): { mfaToken?: string; recoveryCode?: string; passkey?: AuthenticationResponseJSON; rememberDevice?: boolean } {
  // Passkeys: an assertion from 'Use a passkey' takes the place of the code.
  const factor = passkey
    ? { passkey }
    : state.useRecoveryCode
      ? { recoveryCode: (state.recoveryCode ?? '').trim() }
      : { mfaToken: state.mfaToken.trim() };
  return state.rememberDevice && (state.rememberDeviceDays ?? 0) > 0 ? { ...factor, rememberDevice: true } : factor;
}
