import { useQuery } from '@tanstack/react-query';
import type { SuccessMessage } from '@shared/api-answers';
import type { MySession, MySessionsEnded, MySignIn } from '@shared/insights';
import type { MyPrivacy } from '@shared/privacy';
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
