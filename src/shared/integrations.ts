/**
 * Webhook endpoints and audit log streams (docs/integrations.md): the request and answer shapes of
 * /api/webhooks and /api/log-streams, shared by the server and the Integrations page.
 */

/** The events an endpoint may subscribe to; `"*"` subscribes to every one. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deactivated',
  'user.reactivated',
  'user.deleted',
  'session.started',
  'session.ended',
  'sign_in.failed',
  'mfa.enabled',
  'mfa.disabled',
  'invitation.created',
  'invitation.accepted',
  'invitation.revoked',
  'domain.verified',
  'domain.unverified',
  'sso_connection.changed',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Subscribes an endpoint to every event. */
export const WEBHOOK_ALL_EVENTS = '*';
export type WebhookSubscription = WebhookEventType | typeof WEBHOOK_ALL_EVENTS;

/** POST /api/webhooks */
export interface CreateWebhookRequest {
  url: string;
  events: WebhookSubscription[];
  description?: string;
}

/** PUT /api/webhooks/{id}: the fields it names change. */
export interface UpdateWebhookRequest {
  url?: string;
  events?: WebhookSubscription[];
  description?: string;
  enabled?: boolean;
}

/** An endpoint as GET /api/webhooks lists it: never its secret. */
export interface WebhookEndpointItem {
  id: number;
  url: string;
  events: WebhookSubscription[];
  enabled: boolean;
  description?: string | null;
}

/** POST /api/webhooks: the endpoint and its signing secret, shown this once. */
export interface NewWebhookEndpoint extends WebhookEndpointItem {
  secret: string;
}

/** POST /api/webhooks/{id}/rotate-secret: the new secret; the old one keeps signing beside it for 24 hours. */
export interface RotatedWebhookSecret {
  secret: string;
}

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One delivery of GET /api/webhooks/{id}/deliveries (newest first). */
export interface WebhookDeliveryItem {
  id: number;
  eventId: string;
  type: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  /** A short, escaped excerpt of what went wrong; never the receiver's whole answer. */
  lastError: string | null;
  nextAttemptAt: string | null;
}

export const LOG_STREAM_TYPES = ['splunk-hec', 'datadog', 'http'] as const;
export type LogStreamType = (typeof LOG_STREAM_TYPES)[number];

/** POST /api/log-streams */
export interface CreateLogStreamRequest {
  type: LogStreamType;
  url: string;
  token: string;
}

/** A stream as POST and GET /api/log-streams answer it: never its token. */
export interface LogStreamItem {
  id: number;
  type: LogStreamType;
  url: string;
  /** Null for a deployment-wide stream (E-Support, every organisation's events). */
  organisationId?: number | null;
  lastDeliveredAt: string | null;
  lastError: string | null;
}
