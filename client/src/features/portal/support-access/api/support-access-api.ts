import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  SupportAccessCreated,
  SupportAccessItem,
  SupportAccessRequest,
  SupportAccessStarted,
} from '@shared/portal/support-access';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const supportAccessApi = {
  list: () => api.get<SupportAccessItem[]>('api/support-access'),
  /** Sensitive: the api client asks for step-up and retries once when the server wants it. */
  ask: (body: SupportAccessRequest) => api.post<SupportAccessCreated>('api/support-access', body),
  approve: (id: number) => api.post<SupportAccessItem>(`api/support-access/${id}/approve`),
  refuse: (id: number) => api.post<SupportAccessItem>(`api/support-access/${id}/refuse`),
  start: (id: number) => api.post<SupportAccessStarted>(`api/support-access/${id}/start`),
  end: (id: number) => api.delete<SupportAccessItem>(`api/support-access/${id}`),
};

export function useSupportAccessList() {
  return useQuery({ queryKey: queryKeys.supportAccess, queryFn: supportAccessApi.list, retry: false });
}

/** A change of one request (ask, approve, refuse, end): the list is read again. */
export function useSupportAccessChange<A, R>(call: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.supportAccess }),
  });
}
