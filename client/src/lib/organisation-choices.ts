import { useQuery } from '@tanstack/react-query';
import type { AnnouncementAudience } from '@shared/api-types';
import { api } from './api';
import { queryKeys } from './query-keys';

/** The organisations E-Support may pick (the list announcements address), for the organisation pickers. */
export function useOrganisationChoices(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.announcements.audiences,
    queryFn: () => api.get<AnnouncementAudience[]>('api/announcements/organisations'),
    enabled,
    retry: false,
  });
}
