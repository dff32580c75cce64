import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OrganisationInfo } from '@shared/api-types';
import type { AuditEventPage, AuditEventQuery } from '@shared/audit';
import { api, querySearch } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** The query string of the audit calls: only the fields that are set. */
export const auditSearch: (query: AuditEventQuery) => string = querySearch;

export const auditApi = {
  list: (query: AuditEventQuery) => api.get<AuditEventPage>(`api/audit-events${auditSearch(query)}`),
  /** The export applies the same filters; paging does not apply. */
  exportPath: ({ page: _page, pageSize: _size, ...filters }: AuditEventQuery) =>
    `api/audit-events/export${auditSearch(filters)}`,
};

export function useAuditEvents(query: AuditEventQuery) {
  return useQuery({
    queryKey: queryKeys.auditEvents(query),
    queryFn: () => auditApi.list(query),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The accounts of the caller's organisation, for the actor and target filters. */
export function useOrganisationAccounts() {
  return useQuery({
    queryKey: queryKeys.organisation,
    queryFn: () => api.get<OrganisationInfo>('auth/organisation'),
    retry: false,
    staleTime: 60_000,
  });
}
