import { startAuthentication } from '@simplewebauthn/browser';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { StepUpRequest, StepUpResult } from '@shared/api-types';
import { api } from '@/lib/api';

/** Re-authentication (docs/product-rules.md §7): the proofs POST /auth/step-up takes, and the corporate round trip. */
export const stepUpApi = {
  confirm: (proof: StepUpRequest) => api.post<StepUpResult>('auth/step-up', proof),
  /** Asks the browser for an assertion of one of this account's passkeys, then has the server check it. */
  confirmWithPasskey: async () => {
    const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>('auth/step-up/passkey-options');
    return stepUpApi.confirm({ passkey: await startAuthentication({ optionsJSON }) });
  },
  /** Where the browser signs in again at the identity provider, coming back to `returnTo`. */
  ssoUrl: (returnTo: string) => api.post<{ url: string }>('auth/step-up/sso', { returnTo }),
};
