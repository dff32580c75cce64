import { api } from '@/lib/api';
import type { RecoveryCodesResponse, RecoveryCodesStatus, TrustedDeviceItem } from '@shared/identity/mfa-recovery';
import { queryKeys } from '@/lib/query-keys';

/** Recovery codes and trusted devices of the signed-in user (docs/decisions/recovery-codes-trusted-devices.md lists the paths). */
export const recoveryApi = {
  status: () => api.get<RecoveryCodesStatus>('mfa/recovery-codes'),
  regenerate: (token: string) => api.post<RecoveryCodesResponse>('mfa/recovery-codes', { token }),
  devices: () => api.get<TrustedDeviceItem[]>('mfa/trusted-devices'),
  revoke: (id: number) => api.delete<{ success: boolean }>(`mfa/trusted-devices/${id}`),
  revokeAll: () => api.delete<{ success: boolean; revoked: number }>('mfa/trusted-devices'),
};

export const RECOVERY_QUERY_KEY = queryKeys.mfa.recoveryCodes;
export const DEVICES_QUERY_KEY = queryKeys.mfa.trustedDevices;
