import { useQuery } from '@tanstack/react-query';
import type { SuccessMessage } from '@shared/api-answers';
import type { MySession, MySessionsEnded, MySignIn } from '@shared/administration/insights';
import type { MyPrivacy } from '@shared/administration/privacy';
import type { MyOidcApp } from '@shared/identity/oidc-clients';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const mySecurityApi = {
  sessions: () => api.get<MySession[]>('api/me/sessions'),
  endSession: (id: string) => api.delete<MySessionsEnded>(`api/me/sessions/${encodeURIComponent(id)}`),
  endOthers: () => api.delete<MySessionsEnded>('api/me/sessions?others=true'),
  signIns: () => api.get<MySignIn[]>('api/me/sign-ins'),
  privacy: () => api.get<MyPrivacy>('api/me/privacy'),
  /** Deletes the caller's own account (sensitive: the step-up dialog may ask first). */
  deleteAccount: () => api.delete<SuccessMessage>('api/me'),
  /** The applications that signed me in through the portal, with what each may read. */
  apps: () => api.get<MyOidcApp[]>('api/me/apps'),
  /** Withdraws an application's access: its grants and tokens for me are revoked at once. */
  revokeApp: (clientId: string) => api.delete<{ success: true }>(`api/me/apps/${encodeURIComponent(clientId)}`),
  notMe: (token: string) => api.post<{ success: true; message: string }>('auth/not-me', { token }),
};

export function useMySessions() {
  return useQuery({ queryKey: queryKeys.mySecurity.sessions, queryFn: mySecurityApi.sessions, retry: false });
}

export function useMySignIns() {
  return useQuery({ queryKey: queryKeys.mySecurity.signIns, queryFn: mySecurityApi.signIns, retry: false });
}

export function useMyPrivacy() {
  return useQuery({ queryKey: queryKeys.mySecurity.privacy, queryFn: mySecurityApi.privacy, retry: false });
}

export function useMyApps() {
  return useQuery({ queryKey: queryKeys.mySecurity.apps, queryFn: mySecurityApi.apps, retry: false });
}
