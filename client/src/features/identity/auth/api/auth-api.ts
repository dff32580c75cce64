import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { SsoDiscoveryResult } from '@shared/identity/sso';
import { api } from '@/lib/api';

export interface LoginPayload {
  /** Left out, with password, for a password-less sign-in with a passkey. */
  username?: string;
  password?: string;
  acceptToS: boolean;
  mfaToken?: string;
  recoveryCode?: string;
  rememberDevice?: boolean;
  /** Passkeys: an assertion, as the second factor or alone. */
  passkey?: AuthenticationResponseJSON;
}

/** The sign-in calls of docs/product-rules.md §3. The challenge token of a step goes as the bearer of the next. */
export const authApi = {
  login: (payload: LoginPayload, challengeToken?: string) =>
    api.post<{ success: boolean; accessToken: string; recoveryCodesLeft?: number }>(
      'auth/login',
      payload,
      challengeToken ? { bearer: challengeToken } : undefined,
    ),
  sendEmailCode: (challengeToken: string) =>
    api.post<{ success: boolean; message: string }>('mfa/email-mfa', undefined, { bearer: challengeToken }),
  changeForcedPassword: (challengeToken: string, currentPassword: string, newPassword: string) =>
    api.post<{ success: boolean }>(
      'auth/change-password',
      { currentPassword, newPassword },
      { bearer: challengeToken },
    ),
  forgotPassword: (username: string, mfaCode?: string) =>
    api.post<{ success: boolean; message: string }>(
      'auth/forgot-password',
      mfaCode ? { username, mfaCode } : { username },
    ),
  /** docs/product-rules.md §6: whether the e-mail's organisation signs it in through its own identity provider. */
  discover: (email: string) => api.post<SsoDiscoveryResult>('auth/sso/discover', { email }),
  resetPassword: (token: string, password: string) =>
    api.post<{ success: boolean }>('auth/reset-password', { token, password }),
};
