import { Webhook } from 'standardwebhooks';
import { AUDIT_EVENT_TYPES, AuditEventItem } from '../../../shared/audit';
import { AccountEvent } from '../../../shared/identity/account-events';
import {
  LogStreamType,
  WebhookActor,
  WebhookEventType,
  WebhookPayload,
} from '../../../shared/administration/integrations';

/**
 * The webhook event an audit event is, for those the catalogue names beside the account events (which come from
 * the account lifecycle itself): sign-ins and their ends, failed sign-ins, second factors, domains, SSO connections.
 */
const WEBHOOK_EVENT_OF_AUDIT: Partial<Record<string, WebhookEventType>> = {
  SIGN_IN_SUCCEEDED: 'session.started',
  SSO_SIGN_IN: 'session.started',
  LOGOUT: 'session.ended',
  FORCE_LOGOFF: 'session.ended',
  SSO_LOGOUT: 'session.ended',
  SESSION_EXPIRED: 'session.ended',
  SIGN_IN_FAILED: 'sign_in.failed',
  SIGN_IN_LOCKED: 'sign_in.failed',
  MFA_ENABLED: 'mfa.enabled',
  MFA_DISABLED: 'mfa.disabled',
  MFA_DISABLED_BY_ADMIN: 'mfa.disabled',
  INVITATION_CREATED: 'invitation.created',
  INVITATION_ACCEPTED: 'invitation.accepted',
  INVITATION_REVOKED: 'invitation.revoked',
  DOMAIN_VERIFIED: 'domain.verified',
  DOMAIN_UNVERIFIED: 'domain.unverified',
  SSO_CONNECTION_CREATED: 'sso_connection.changed',
  SSO_CONNECTION_CHANGED: 'sso_connection.changed',
  SSO_CONNECTION_REMOVED: 'sso_connection.changed',
  OIDC_CLIENT_CREATED: 'oidc_client.created',
  OIDC_CLIENT_CHANGED: 'oidc_client.updated',
  OIDC_CLIENT_SECRET_ROTATED: 'oidc_client.updated',
  OIDC_CLIENT_REMOVED: 'oidc_client.deleted',
  SUPPORT_ACCESS_STARTED: 'support_access.started',
  SUPPORT_ACCESS_ENDED: 'support_access.ended',
};

export function webhookEventOfAudit(type: string): WebhookEventType | undefined {
  return WEBHOOK_EVENT_OF_AUDIT[type];
}

function auditActor(e: AuditEventItem): WebhookActor {
  if (e.actorKind === 'user') return { type: 'user', id: e.actorId };
  if (e.actorKind === 'scim-token') return { type: 'scim', id: e.actorId };
  return { type: 'system', id: null };
}

/** The body of a webhook told by the audit trail: the account it concerns, and the trail's one line. */
export function auditWebhookPayload(type: WebhookEventType, e: AuditEventItem, organisationId: number): WebhookPayload {
  const userId = e.targetId ?? (e.actorKind === 'user' ? e.actorId : null);
  const email = e.targetEmail ?? (e.actorKind === 'user' ? e.actorEmail : null);
  return {
    type,
    timestamp: e.occurredAt,
    data: { organisationId, actor: auditActor(e), userId, email, summary: e.summary },
  };
}

export function accountWebhookPayload(event: AccountEvent, at: Date): WebhookPayload {
  return {
    type: event.type,
    timestamp: at.toISOString(),
    data: { organisationId: event.organisationId, actor: event.actor, ...event.user },
  };
}

/** The `webhook-signature` header: one `v1,…` per secret in use, space-separated (Standard Webhooks). */
export function webhookSignature(secrets: string[], eventId: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' ');
}

export interface StreamRequest {
  headers: Record<string, string>;
  body: string;
}

/** One request of a log stream carrying these audit events, in the receiver's own format (docs/integrations.md). */
export function logStreamRequest(type: LogStreamType, token: string, events: AuditEventItem[]): StreamRequest {
  switch (type) {
    case 'splunk-hec':
      return {
        headers: { authorization: `Splunk ${token}`, 'content-type': 'application/json' },
        body: events
          .map((event) =>
            JSON.stringify({
              time: Date.parse(event.occurredAt) / 1000,
              sourcetype: 'tax-portal:audit',
              event,
            }),
          )
          .join('\n'),
      };
    case 'datadog':
      return {
        headers: { 'dd-api-key': token, 'content-type': 'application/json' },
        body: JSON.stringify(
          events.map((event) => ({
            ddsource: 'tax-portal',
            service: 'tax-portal',
            message: AUDIT_EVENT_TYPES[event.type] ?? event.type,
            ...event,
          })),
        ),
      };
    case 'http':
      return {
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body: events.map((event) => JSON.stringify(event)).join('\n') + '\n',
      };
  }
}
