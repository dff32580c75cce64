import { useQuery } from '@tanstack/react-query';
import type { ESupportCreated, SiteAdminCreated, SiteAdminCreation } from '@shared/api-types';
import { api } from '@/lib/api';

export const organisationsApi = {
  createSiteAdmin: (payload: SiteAdminCreation) => api.post<SiteAdminCreated>('auth/site-admin', payload),
  createESupport: (userName: string) => api.post<ESupportCreated>('api/users/add-esupport', { userName }),
  supportDomain: () => api.get<{ domain: string }>('api/support-accounts/domain'),
};

export function useSupportDomain() {
  return useQuery({ queryKey: ['support-domain'], queryFn: organisationsApi.supportDomain, staleTime: Infinity, retry: false });
}
