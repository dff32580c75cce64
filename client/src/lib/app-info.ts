import { useQuery } from '@tanstack/react-query';
import type { AppInfo } from '@shared/api-types';
import { api } from './api';
import { queryKeys } from './query-keys';

/** GET api/app-info: product version and environment name (APP_ENV). */
export function useAppInfo() {
  return useQuery({
    queryKey: queryKeys.appInfo,
    queryFn: () => api.get<AppInfo>('api/app-info'),
    staleTime: Infinity,
  });
}
