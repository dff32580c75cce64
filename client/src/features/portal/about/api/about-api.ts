import { useQuery } from '@tanstack/react-query';
import type { SystemInformationEntry } from '@shared/api-types';
import type { SystemEventType } from '@shared/portal/shell';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const getSystemInformation = (eventType: SystemEventType) =>
  api.post<SystemInformationEntry[]>('api/system-information/all', { eventType, asc: false });

/** The releases of one kind, newest first (spec 001 §4). */
export function useSystemInformation(eventType: SystemEventType) {
  return useQuery({ queryKey: queryKeys.systemInformation(eventType), queryFn: () => getSystemInformation(eventType) });
}
