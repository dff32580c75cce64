import { useQuery } from '@tanstack/react-query';
import type { InsightsReport, OrganisationGlance } from '@shared/administration/insights';
import { api, querySearch } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** The period of the last `days` days, today included, as calendar dates of this browser's day. */
export function lastDays(days: number, today = new Date()): { from: string; to: string } {
  const iso = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { from: iso(from), to: iso(today) };
}

export const insightsApi = {
  report: (from: string, to: string, organisationId: number | null) =>
    api.get<InsightsReport>(`api/insights${querySearch({ from, to, organisationId: organisationId ?? undefined })}`),
  glance: () => api.get<OrganisationGlance[]>('api/insights/organisations'),
};

export function useInsights(days: number, organisationId: number | null = null) {
  const { from, to } = lastDays(days);
  return useQuery({
    queryKey: queryKeys.insights.report(from, to, organisationId),
    queryFn: () => insightsApi.report(from, to, organisationId),
    retry: false,
    staleTime: 60_000,
  });
}

export function useOrganisationsGlance() {
  return useQuery({
    queryKey: queryKeys.insights.glance,
    queryFn: insightsApi.glance,
    retry: false,
    staleTime: 60_000,
  });
}
