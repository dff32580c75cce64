import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { runSql } from '../../../platform/database/raw-sql';
import { AUDIT_RECORDED, AuditRecorded } from '../../../platform/audit';
import { AuditEventItem } from '../../../shared/audit';
import { WEBHOOK_ALL_EVENTS, WebhookPayload } from '../../../shared/administration/integrations';
import { ACCOUNT_CHANGED, AccountChanged } from '../../../identity/users';
import { IntegrationDelivery } from '../entities/integration-delivery.entity';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity';
import { DeliveryEngine } from './delivery-engine.service';
import { accountWebhookPayload, auditWebhookPayload, webhookEventOfAudit } from './payload-formats';

/** A Standard Webhooks message id: the webhook-id header, the same on every attempt. */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

/** Whether an endpoint subscribed to an event type. */
function subscribes(endpoint: Pick<WebhookEndpoint, 'events'>, type: string): boolean {
  const events = JSON.parse(endpoint.events) as string[];
  return events.includes(WEBHOOK_ALL_EVENTS) || events.includes(type);
}

/**
 * Writes the deliveries an event causes, through the manager of the change that caused it: account events from the
 * account lifecycle (inside its transaction) and every audit event (inside the transaction that recorded it). So a
 * delivery exists exactly when its change committed, and is sent after the commit by the {@link DeliveryEngine}.
 */
@Injectable()
export class IntegrationOutbox {
  constructor(private readonly engine: DeliveryEngine) {}

  /** An account change as a webhook (user.created, …), in the change's transaction. */
  @OnEvent(ACCOUNT_CHANGED, { suppressErrors: false })
  async accountChanged({ tx, event }: AccountChanged): Promise<void> {
    await this.webhookEvent(tx, accountWebhookPayload(event, new Date()));
  }

  /** Every audit event, in the transaction that recorded it. */
  @OnEvent(AUDIT_RECORDED, { suppressErrors: false })
  async auditRecorded({ tx, item }: AuditRecorded): Promise<void> {
    await this.auditEvent(tx, item);
  }

  /** One delivery per enabled endpoint of the organisation subscribed to the event. */
  async webhookEvent(manager: EntityManager, payload: WebhookPayload): Promise<void> {
    const endpoints = await manager
      .getRepository(WebhookEndpoint)
      .find({ where: { organisationId: payload.data.organisationId, enabled: true }, select: ['id', 'events'] });
    await this.webhookDeliveries(manager, payload, endpoints);
  }

  private async webhookDeliveries(
    manager: EntityManager,
    payload: WebhookPayload,
    endpoints: Array<Pick<WebhookEndpoint, 'id' | 'events'>>,
  ): Promise<void> {
    const targets = endpoints.filter((e) => subscribes(e, payload.type));
    if (targets.length === 0) return;
    const eventId = newEventId();
    const body = JSON.stringify(payload);
    await manager.getRepository(IntegrationDelivery).insert(
      targets.map((e) => ({
        endpointId: e.id,
        streamId: null,
        eventId,
        type: payload.type,
        payload: body,
        occurredAt: new Date(payload.timestamp),
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: new Date(),
      })),
    );
    this.engine.deliverAfterCommit(manager);
  }

  /** The audit event to every log stream that takes its organisation's events, and as a webhook where it is one. */
  private async auditEvent(manager: EntityManager, event: AuditEventItem): Promise<void> {
    const webhookType = event.organisationId === null ? undefined : webhookEventOfAudit(event.type);
    const { streams, endpoints } = await receivers(manager, event.organisationId, webhookType !== undefined);
    if (streams.length > 0) {
      const eventId = newEventId();
      const body = JSON.stringify(event);
      await manager.getRepository(IntegrationDelivery).insert(
        streams.map((id) => ({
          endpointId: null,
          streamId: id,
          eventId,
          type: event.type,
          payload: body,
          occurredAt: new Date(event.occurredAt),
          status: 'pending' as const,
          attempts: 0,
          nextAttemptAt: new Date(),
        })),
      );
      // Log streams are swept, not woken per event: what arrives meanwhile goes in the same batch.
    }
    if (webhookType)
      await this.webhookDeliveries(manager, auditWebhookPayload(webhookType, event, event.organisationId!), endpoints);
  }
}

/**
 * In one read (it runs inside every audited change's transaction): the log streams that take the organisation's
 * audit events (its own and the deployment-wide ones) and, with `endpoints`, the organisation's enabled webhook
 * endpoints with their subscriptions.
 */
async function receivers(
  manager: EntityManager,
  organisationId: number | null,
  endpoints: boolean,
): Promise<{ streams: number[]; endpoints: Array<Pick<WebhookEndpoint, 'id' | 'events'>> }> {
  // The organisation is bound, never written into the text: one statement for every organisation.
  const streamsOf = `SELECT 's' AS "kind", "id", NULL AS "events" FROM "log_streams" WHERE ${
    organisationId === null ? '"organisationId" IS NULL' : '("organisationId" = ? OR "organisationId" IS NULL)'
  }`;
  const streamParams = organisationId === null ? [] : [organisationId];
  const rows = await runSql<{ kind: 's' | 'w'; id: number | string; events: string | null }>(
    manager,
    endpoints
      ? `SELECT 'w' AS "kind", "id", "events" FROM "webhook_endpoints" WHERE "organisationId" = ? AND "enabled" = TRUE UNION ALL ${streamsOf}`
      : streamsOf,
    endpoints ? [organisationId, ...streamParams] : streamParams,
  );
  return {
    streams: rows.filter((r) => r.kind === 's').map((r) => Number(r.id)),
    endpoints: rows.filter((r) => r.kind === 'w').map((r) => ({ id: Number(r.id), events: r.events! })),
  };
}
