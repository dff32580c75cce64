import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecurityPolicy, SecurityPolicyChange } from '@shared/administration/security-policy';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const policyPath = (organisationId: number) => `api/organisations/${organisationId}/security-policy`;

export const securityPolicyApi = {
  get: (organisationId: number) => api.get<SecurityPolicy>(policyPath(organisationId)),
  /** A sensitive call: the api client asks for step-up and retries once when the server wants it. */
  save: ({ organisationId, change }: { organisationId: number; change: SecurityPolicyChange }) =>
    api.put<SecurityPolicy>(policyPath(organisationId), change),
};

export function useSecurityPolicy(organisationId: number | null) {
  return useQuery({
    enabled: organisationId !== null,
    queryKey: queryKeys.securityPolicy(organisationId ?? 0),
    queryFn: () => securityPolicyApi.get(organisationId!),
    retry: false,
  });
}

export function useSaveSecurityPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: securityPolicyApi.save,
    onSuccess: (saved, { organisationId }) => client.setQueryData(queryKeys.securityPolicy(organisationId), saved),
  });
}
