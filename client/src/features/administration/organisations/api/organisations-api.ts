import { useQuery } from '@tanstack/react-query';
import type { ESupportCreated, SiteAdminCreated, SiteAdminCreation } from '@shared/api-types';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const organisationsApi = {
  createSiteAdmin: (payload: SiteAdminCreation) => api.post<SiteAdminCreated>('auth/site-admin', payload),
  createESupport: (userName: string) => api.post<ESupportCreated>('api/users/add-esupport', { userName }),
  supportDomain: () => api.get<{ domain: string }>('api/support-accounts/domain'),
};

export function useSupportDomain() {
  return useQuery({
    queryKey: queryKeys.supportDomain,
    queryFn: organisationsApi.supportDomain,
    staleTime: Infinity,
    retry: false,
  });
}
