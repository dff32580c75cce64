import { useQuery } from '@tanstack/react-query';
import type { ForceLogoffResult, UserSessionsResponse } from '@shared/api-types';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const sessionsApi = {
  list: () => api.get<UserSessionsResponse>('api/userLoginActivities/user-sessions'),
  forceLogoff: (userIds: number[]) => api.post<ForceLogoffResult>('api/userLoginActivities/force-logoff', { userIds }),
};

export function useUserSessions() {
  return useQuery({ queryKey: queryKeys.sessions, queryFn: sessionsApi.list, refetchInterval: 30_000, retry: false });
}
