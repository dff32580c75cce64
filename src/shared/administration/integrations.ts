/**
 * What an organisation's own systems receive (docs/integrations.md): signed webhooks (Standard Webhooks) and audit
 * log streams. Server and client import this file.
 */

/** Every event a webhook endpoint may subscribe to; `"*"` subscribes to all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deactivated',
  'user.reactivated',
  'user.deleted',
  'user.erased',
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
  'oidc_client.created',
  'oidc_client.updated',
  'oidc_client.deleted',
  'support_access.started',
  'support_access.ended',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_ALL_EVENTS = '*';

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** Endpoints an organisation may have, and log streams. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
export const LOG_STREAMS_MAX = 10;
export const LOG_STREAM_TOKEN_MAX = 500;
/** A token goes into a request header as it is: visible ASCII only (a line break would end the header). */
export const LOG_STREAM_TOKEN_PATTERN = /^[\x21-\x7e]+$/;
/** Audit events in one log-stream request. */
export const LOG_STREAM_BATCH_MAX = 100;
/** How long a rotated-out secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
/** An endpoint with nothing but failed attempts for this long is disabled and its site admins told. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;

export const LOG_STREAM_TYPES = ['splunk-hec', 'datadog', 'http'] as const;
export type LogStreamType = (typeof LOG_STREAM_TYPES)[number];

export const INTEGRATION_MESSAGES = {
  URL_INVALID: 'Enter the https:// address of your receiver.',
  URL_PRIVATE: 'This address is not reachable from the portal: use a public https:// address.',
  EVENTS_INVALID: `Subscribe to "*" or to events from the catalogue: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
  DESCRIPTION_TOO_LONG: `The description can be at most ${WEBHOOK_DESCRIPTION_MAX} characters.`,
  ENABLED_INVALID: 'enabled must be true or false.',
  ENDPOINT_NOT_FOUND: 'Webhook endpoint not found.',
  DELIVERY_NOT_FOUND: 'Delivery not found.',
  TOO_MANY_ENDPOINTS: `An organisation can have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`,
  STREAM_TYPE_INVALID: `type must be one of ${LOG_STREAM_TYPES.join(', ')}.`,
  STREAM_TOKEN_REQUIRED: `Enter the token the receiver expects (at most ${LOG_STREAM_TOKEN_MAX} characters).`,
  STREAM_TOKEN_CHARACTERS:
    'The token can hold only visible ASCII characters: no spaces, line breaks or other control characters.',
  STREAM_NOT_FOUND: 'Log stream not found.',
  TOO_MANY_STREAMS: `An organisation can have at most ${LOG_STREAMS_MAX} log streams.`,
} as const;

/** Who caused an event, in a webhook's `data.actor`. */
export interface WebhookActor {
  type: 'user' | 'api_key' | 'scim' | 'system';
  id: number | null;
}

/** A webhook's body: `{type, timestamp, data}`; `data` always holds organisationId and actor. */
export interface WebhookPayload {
  type: WebhookEventType;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  data: { organisationId: number; actor: WebhookActor } & Record<string, unknown>;
}

/** One endpoint of GET /api/webhooks (the secret is never returned after creation). */
export interface WebhookEndpointItem {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  organisationId: number;
  createdAt: string;
  /** Set when the endpoint was switched off after days of failures (or by PUT enabled: false). */
  disabledReason: string | null;
}

/** POST /api/webhooks: the endpoint with its signing secret, shown this once. */
export interface NewWebhookEndpoint {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  description: string | null;
  /** `whsec_` and the base64 of 32 random bytes. */
  secret: string;
}

/** POST /api/webhooks/{id}/rotate-secret */
export interface RotatedWebhookSecret {
  secret: string;
  /** Until then the previous secret signs beside the new one. */
  previousSecretValidUntil: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One row of GET /api/webhooks/{id}/deliveries (newest first). */
export interface WebhookDeliveryItem {
  id: number;
  /** The `webhook-id` header: the same on every attempt, so receivers can drop repeats. */
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  /** A short excerpt of what went wrong (the receiver's answer, escaped, or the network error). */
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** One audit log stream of GET /api/log-streams (its token is never returned). */
export interface LogStreamItem {
  id: number;
  type: LogStreamType;
  url: string;
  /** null: every organisation's events (a stream E-Support added without organisationId). */
  organisationId: number | null;
  createdAt: string;
  lastDeliveredAt: string | null;
  lastError: string | null;
}

/** POST /api/log-streams/{id}/test: one sample event sent now, and how the receiver answered. */
export interface LogStreamTestResult {
  success: boolean;
  statusCode: number | null;
  error: string | null;
}

/** An endpoint's subscription: an event of the catalogue, or `"*"` for every one. */
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

/** POST /api/log-streams */
export interface CreateLogStreamRequest {
  type: LogStreamType;
  url: string;
  token: string;
}
