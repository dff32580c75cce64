import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { NewScimToken, ScimTokenItem } from '@shared/identity/scim';
import { api, querySearch } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** ?organisationId= for E-Support working on another organisation; nothing for one's own. */
const forOrganisation = (organisationId?: number) => querySearch({ organisationId });

export const provisioningApi = {
  list: (organisationId?: number) => api.get<ScimTokenItem[]>(`api/scim-tokens${forOrganisation(organisationId)}`),
  create: ({ name, organisationId }: { name: string; organisationId?: number }) =>
    api.post<NewScimToken>(`api/scim-tokens${forOrganisation(organisationId)}`, { name }),
  revoke: (id: number) => api.delete<{ success: true }>(`api/scim-tokens/${id}`),
};

export function useScimTokens(organisationId: number | undefined, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: queryKeys.scimTokens.of(organisationId),
    queryFn: () => provisioningApi.list(organisationId),
    retry: false,
  });
}

export function useReloadScimTokens() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.scimTokens.all });
}
