import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SuccessResult } from '@shared/api-types';
import type { DomainItem, DomainVerifyResult } from '@shared/identity/domains';
import type { SsoConnectionItem, SsoProtocol, SsoTestResult, SsoTestStart } from '@shared/identity/sso';
import { api, querySearch } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** POST /api/sso-connections (docs/product-rules.md §6): OIDC settings or SAML metadata, and the just-in-time options. */
export type NewConnection =
  | {
      protocol: 'oidc';
      name: string;
      issuer: string;
      clientId: string;
      clientSecret: string;
      jitProvisioning: boolean;
      defaultRoleId: number | null;
    }
  | { protocol: 'saml'; name: string; metadataXml: string; jitProvisioning: boolean; defaultRoleId: number | null };

/** PUT /api/sso-connections/{id}: only the fields that change. */
export interface ConnectionChange {
  name?: string;
  enabled?: boolean;
  jitProvisioning?: boolean;
  defaultRoleId?: number | null;
}

export type { DomainItem, SsoConnectionItem, SsoProtocol, SsoTestResult };

/** E-Support names the organisation it works on; everyone else works on their own (null). */
const scope = (organisationId: number | null) => querySearch({ organisationId: organisationId ?? undefined });

export const ssoApi = {
  connections: (organisationId: number | null) =>
    api.get<SsoConnectionItem[]>(`api/sso-connections${scope(organisationId)}`),
  addConnection: (organisationId: number | null, connection: NewConnection) =>
    api.post<SsoConnectionItem>(`api/sso-connections${scope(organisationId)}`, connection),
  changeConnection: (id: number, change: ConnectionChange) =>
    api.put<SsoConnectionItem>(`api/sso-connections/${id}`, change),
  removeConnection: (id: number) => api.delete<SuccessResult>(`api/sso-connections/${id}`),
  testConnection: (id: number) => api.post<SsoTestStart>(`api/sso-connections/${id}/test`),
  testResult: (id: number, key: string) =>
    api.get<SsoTestResult>(`api/sso-connections/${id}/test-results/${encodeURIComponent(key)}`),
  domains: (organisationId: number | null) => api.get<DomainItem[]>(`api/domains${scope(organisationId)}`),
  claimDomain: (organisationId: number | null, domain: string) =>
    api.post<DomainItem>(`api/domains${scope(organisationId)}`, { domain }),
  verifyDomain: (id: number) => api.post<DomainVerifyResult>(`api/domains/${id}/verify`),
  removeDomain: (id: number) => api.delete<SuccessResult>(`api/domains/${id}`),
};

export function useConnections(organisationId: number | null) {
  return useQuery({
    queryKey: queryKeys.sso.connections(organisationId),
    queryFn: () => ssoApi.connections(organisationId),
    retry: false,
  });
}

export function useDomains(organisationId: number | null) {
  return useQuery({
    queryKey: queryKeys.sso.domains(organisationId),
    queryFn: () => ssoApi.domains(organisationId),
    retry: false,
  });
}

/** The result of a test round trip the page came back with (?connection=&ssoTest=). */
export function useTestResult(connectionId: number, key: string) {
  return useQuery({
    queryKey: queryKeys.sso.testResult(connectionId, key),
    queryFn: () => ssoApi.testResult(connectionId, key),
    retry: false,
  });
}

/** A change on the page, followed by a reload of the page's lists (a verify may also fail; the list still reloads). */
export function useSsoMutation<TArgs, TResult>(run: (args: TArgs) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sso.all }),
  });
}
