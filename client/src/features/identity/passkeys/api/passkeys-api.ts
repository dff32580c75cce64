import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { PasskeyItem } from '@shared/identity/passkeys';
import { api } from '@/lib/api';

/** Passkeys: the profile's calls under /mfa/passkeys and the sign-in's options. */
export const passkeysApi = {
  list: () => api.get<PasskeyItem[]>('mfa/passkeys'),
  /** Asks the browser (and its authenticator) for a new passkey, then has the server verify and keep it. */
  add: async (name: string) => {
    const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>('mfa/passkeys/registration-options');
    const response = await startRegistration({ optionsJSON });
    return api.post<PasskeyItem>('mfa/passkeys', { name, response });
  },
  rename: (id: number, name: string) => api.patch<PasskeyItem>(`mfa/passkeys/${id}`, { name }),
  remove: (id: number) => api.delete<{ success: boolean }>(`mfa/passkeys/${id}`),
  /**
   * An assertion for POST /auth/login: with the MFA challenge token, from one of that account's passkeys;
   * without, from any passkey of this site (password-less sign-in).
   */
  assert: async (challengeToken?: string): Promise<AuthenticationResponseJSON> => {
    const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>(
      'auth/passkey/options',
      undefined,
      challengeToken ? { bearer: challengeToken } : undefined,
    );
    return startAuthentication({ optionsJSON });
  },
};

export const PASSKEY_TEXTS = {
  SIGN_IN: 'Sign in with a passkey',
  USE: 'Use a passkey',
  CANCELLED: 'The passkey request was cancelled or timed out. Please try again.',
  UNSUPPORTED: 'This browser does not support passkeys.',
  PANEL_TITLE: 'Passkeys',
  PANEL_HELP:
    'A passkey signs you in with your device\u2019s fingerprint, face or PIN, or a security key. It counts as your second factor, and lets you sign in without a password.',
  NONE: 'You have no passkeys yet.',
  ADD: 'Add a passkey',
  NAME: 'Passkey name',
  ADDED: 'Passkey added. You have been signed out of your other sessions.',
  REMOVED: 'Passkey removed. You have been signed out of your other sessions.',
  CONFIRM_REMOVE: (name: string) => `Remove the passkey '${name}'? You will no longer be able to sign in with it.`,
} as const;

/** What to tell the user when the browser's part of a ceremony fails (cancelled, timed out, unsupported). */
export function browserCeremonyError(error: unknown): string | null {
  if (error instanceof WebAuthnError)
    return error.code === 'ERROR_CEREMONY_ABORTED' ? PASSKEY_TEXTS.CANCELLED : error.message;
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
    return PASSKEY_TEXTS.CANCELLED;
  if (error instanceof Error && /does not support WebAuthn/i.test(error.message)) return PASSKEY_TEXTS.UNSUPPORTED;
  return null;
}
