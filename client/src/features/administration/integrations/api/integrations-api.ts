import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyItem, CreateApiKeyRequest, NewApiKey } from '@shared/administration/api-keys';
import type {
  CreateLogStreamRequest,
  CreateWebhookRequest,
  LogStreamItem,
  LogStreamTestResult,
  NewWebhookEndpoint,
  RotatedWebhookSecret,
  UpdateWebhookRequest,
  WebhookDeliveryItem,
  WebhookEndpointItem,
} from '@shared/administration/integrations';
import { api, querySearch } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** ?organisationId= for E-Support working on another organisation; nothing for one's own. */
const forOrganisation = (organisationId?: number) => querySearch({ organisationId });
type Done = { success: true };

export const apiKeysApi = {
  list: (organisationId?: number) => api.get<ApiKeyItem[]>(`api/api-keys${forOrganisation(organisationId)}`),
  create: ({ organisationId, ...body }: CreateApiKeyRequest & { organisationId?: number }) =>
    api.post<NewApiKey>(`api/api-keys${forOrganisation(organisationId)}`, body),
  revoke: (id: number) => api.delete<Done>(`api/api-keys/${id}`),
};

export const webhooksApi = {
  list: (organisationId?: number) => api.get<WebhookEndpointItem[]>(`api/webhooks${forOrganisation(organisationId)}`),
  create: ({ organisationId, ...body }: CreateWebhookRequest & { organisationId?: number }) =>
    api.post<NewWebhookEndpoint>(`api/webhooks${forOrganisation(organisationId)}`, body),
  update: ({ id, ...body }: UpdateWebhookRequest & { id: number }) =>
    api.put<WebhookEndpointItem>(`api/webhooks/${id}`, body),
  remove: (id: number) => api.delete<Done>(`api/webhooks/${id}`),
  rotate: (id: number) => api.post<RotatedWebhookSecret>(`api/webhooks/${id}/rotate-secret`),
  test: (id: number) => api.post<WebhookDeliveryItem>(`api/webhooks/${id}/test`),
  deliveries: (id: number) => api.get<WebhookDeliveryItem[]>(`api/webhooks/${id}/deliveries`),
  retry: ({ webhookId, deliveryId }: { webhookId: number; deliveryId: number }) =>
    api.post<WebhookDeliveryItem>(`api/webhooks/${webhookId}/deliveries/${deliveryId}/retry`),
};

export const logStreamsApi = {
  list: (organisationId?: number) => api.get<LogStreamItem[]>(`api/log-streams${forOrganisation(organisationId)}`),
  create: ({ organisationId, ...body }: CreateLogStreamRequest & { organisationId?: number }) =>
    api.post<LogStreamItem>(`api/log-streams${forOrganisation(organisationId)}`, body),
  remove: (id: number) => api.delete<Done>(`api/log-streams/${id}`),
  test: (id: number) => api.post<LogStreamTestResult>(`api/log-streams/${id}/test`),
};

export function useApiKeys(organisationId: number | undefined, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: queryKeys.integrations.apiKeys(organisationId),
    queryFn: () => apiKeysApi.list(organisationId),
    retry: false,
  });
}

export function useWebhooks(organisationId: number | undefined, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: queryKeys.integrations.webhooks(organisationId),
    queryFn: () => webhooksApi.list(organisationId),
    retry: false,
  });
}

/** How often the deliveries are read again while one of them is still pending. */
const PENDING_POLL_MS = 2_000;

/** An endpoint's recent deliveries, read again while one is pending so its outcome appears without a reload. */
export function useDeliveries(webhookId: number) {
  return useQuery({
    queryKey: queryKeys.integrations.deliveries(webhookId),
    queryFn: () => webhooksApi.deliveries(webhookId),
    retry: false,
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? PENDING_POLL_MS : false),
  });
}

export function useLogStreams(organisationId: number | undefined, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: queryKeys.integrations.logStreams(organisationId),
    queryFn: () => logStreamsApi.list(organisationId),
    retry: false,
  });
}

/** Reloads every list of the page after a change. */
export function useReloadIntegrations() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.integrations.all });
}
