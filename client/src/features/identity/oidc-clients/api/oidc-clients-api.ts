import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateOidcClientRequest,
  NewOidcClient,
  OidcClientItem,
  RotatedOidcClientSecret,
  UpdateOidcClientRequest,
} from '@shared/identity/oidc-clients';
import { api, querySearch } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** ?organisationId= for E-Support working on an organisation; nothing for one's own (E-Support: the deployment's). */
const forOrganisation = (organisationId?: number) => querySearch({ organisationId });
type Done = { success: true };

/** The applications API; every change is a sensitive call, which the request layer confirms through step-up. */
export const oidcClientsApi = {
  list: (organisationId?: number) => api.get<OidcClientItem[]>(`api/oidc-clients${forOrganisation(organisationId)}`),
  create: ({ organisationId, ...body }: CreateOidcClientRequest & { organisationId?: number }) =>
    api.post<NewOidcClient>(`api/oidc-clients${forOrganisation(organisationId)}`, body),
  update: ({ id, ...body }: UpdateOidcClientRequest & { id: number }) =>
    api.put<OidcClientItem>(`api/oidc-clients/${id}`, body),
  remove: (id: number) => api.delete<Done>(`api/oidc-clients/${id}`),
  rotateSecret: (id: number) => api.post<RotatedOidcClientSecret>(`api/oidc-clients/${id}/rotate-secret`),
  /** The provider's discovery document (public), for the issuer the applications are configured with. */
  discovery: () => api.get<{ issuer: string }>('/.well-known/openid-configuration'),
};

export function useOidcClients(organisationId: number | undefined, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: queryKeys.oidcClients.list(organisationId),
    queryFn: () => oidcClientsApi.list(organisationId),
    retry: false,
  });
}

/** The provider's issuer, exactly as the applications must name it (PUBLIC_URL). */
export function useOidcIssuer() {
  return useQuery({
    queryKey: queryKeys.oidcClients.discovery,
    queryFn: oidcClientsApi.discovery,
    select: (d) => d.issuer,
    staleTime: Infinity,
    retry: false,
  });
}

/** Reads the applications again after a change. */
export function useReloadOidcClients() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.oidcClients.all });
}
