import { api } from '@/lib/api';
import type { MfaEnableResponse } from '@shared/api-types';
import type { MfaVerifyResponse } from '@shared/identity/mfa-recovery';

/** POST mfa/enable answers the secret and, when the server draws it, the QR code as a data URL. */
export type MfaEnrolment = Omit<MfaEnableResponse, 'qrCode'> & { qrCode?: string };

export const mfaApi = {
  enable: () => api.post<MfaEnrolment>('mfa/enable'),
  verify: (token: string) => api.post<Partial<MfaVerifyResponse> & { success: boolean }>('mfa/verify', { token }),
  disable: (token: string) => api.post<{ success: boolean }>('mfa/disable', { token }),
};
