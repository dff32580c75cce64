import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginAnswer } from '@shared/api-answers';
import type { SsoDiscoveryResult } from '@shared/identity/sso';
import type {
  AcceptInvitationRequest,
  BulkInviteResult,
  InvitationItem,
  InvitationList,
  InvitationPreview,
  InvitationStatus,
  InviteRequest,
} from '@shared/administration/invitations';
import { api, querySearch } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const invitationsApi = {
  list: (organisationId: number | undefined, status: InvitationStatus | '') =>
    api.get<InvitationList>(`api/invitations${querySearch({ organisationId, status, pageSize: 1000 })}`),
  invite: (body: InviteRequest, organisationId?: number) =>
    api.post<InvitationItem>(`api/invitations${querySearch({ organisationId })}`, body),
  /** One batch of CSV rows (with the header row), as text/csv. */
  bulk: (csv: string, organisationId?: number, expiresInDays?: number) =>
    api.post<BulkInviteResult[]>(`api/invitations/bulk${querySearch({ organisationId, expiresInDays })}`, undefined, {
      body: new Blob([csv], { type: 'text/csv' }),
    }),
  resend: (id: number) => api.post<InvitationItem>(`api/invitations/${id}/resend`),
  revoke: (id: number) => api.delete<{ success: true }>(`api/invitations/${id}`),
  preview: (token: string) => api.get<InvitationPreview>(`api/invitations/by-token/${encodeURIComponent(token)}`),
  accept: (body: AcceptInvitationRequest) => api.post<LoginAnswer>('api/invitations/accept', body),
  discover: (email: string) => api.post<SsoDiscoveryResult>('auth/sso/discover', { email }),
};

export function useInvitations(organisationId: number | undefined, status: InvitationStatus | '', enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: queryKeys.invitations.list(organisationId, status),
    queryFn: () => invitationsApi.list(organisationId, status),
    retry: false,
  });
}

export function useReloadInvitations() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.invitations.all });
}

export function useInvitationPreview(token: string | null) {
  return useQuery({
    enabled: !!token,
    queryKey: queryKeys.invitations.preview(token ?? ''),
    queryFn: () => invitationsApi.preview(token!),
    retry: false,
  });
}
