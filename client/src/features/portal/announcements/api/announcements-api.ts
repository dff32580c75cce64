import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AnnouncementAudience,
  AnnouncementItem,
  AnnouncementSummary,
  CreateAnnouncementRequest,
} from '@shared/api-types';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const getAnnouncementSummary = () => api.get<AnnouncementSummary>('api/announcements/summary');
export const getAnnouncements = () => api.get<AnnouncementItem[]>('api/announcements');
export const dismissAnnouncement = (id: number) => api.post<{ success: true }>(`api/announcements/${id}/dismiss`);
export const createAnnouncement = (body: CreateAnnouncementRequest) =>
  api.post<AnnouncementItem>('api/announcements', body);

export function useAnnouncementSummary(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.announcements.summary,
    queryFn: getAnnouncementSummary,
    enabled,
    staleTime: 0,
  });
}

export function useAnnouncements() {
  return useQuery({ queryKey: queryKeys.announcements.all, queryFn: getAnnouncements });
}

export function useAnnouncementAudiences() {
  return useQuery({
    queryKey: queryKeys.announcements.audiences,
    queryFn: () => api.get<AnnouncementAudience[]>('api/announcements/organisations'),
  });
}

export function useCreateAnnouncement() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createAnnouncement,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.announcements.all }),
  });
}
