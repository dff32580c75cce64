import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AuditService } from '../../audit';
import { AuditEventItem } from '../../shared/audit';
import { WEBHOOK_ALL_EVENTS, WebhookPayload } from '../../shared/integrations';
import { AccountEvents } from '../../users';
import { IntegrationDelivery } from '../entities/integration-delivery.entity';
import { LogStream } from '../entities/log-stream.entity';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity';
import { DeliveryEngine } from './delivery-engine.service';
import { accountWebhookPayload, auditWebhookPayload, webhookEventOfAudit } from './formats';

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
export class IntegrationOutbox implements OnModuleInit, OnModuleDestroy {
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly accountEvents: AccountEvents,
    private readonly audit: AuditService,
    private readonly engine: DeliveryEngine,
  ) {}

  onModuleInit(): void {
    this.unsubscribe.push(
      this.accountEvents.subscribe((tx, event) => this.webhookEvent(tx, accountWebhookPayload(event, new Date()))),
      this.audit.addHook({ wants: () => true, recorded: (tx, _event, item) => this.auditEvent(tx, item) }),
    );
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** One delivery per enabled endpoint of the organisation subscribed to the event. */
  async webhookEvent(manager: EntityManager, payload: WebhookPayload): Promise<void> {
    const endpoints = await manager
      .getRepository(WebhookEndpoint)
      .find({ where: { organisationId: payload.data.organisationId, enabled: true }, select: ['id', 'events'] });
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
    const qb = manager.getRepository(LogStream).createQueryBuilder('s').select(['s.id']);
    if (event.organisationId === null) qb.where('s.organisationId IS NULL');
    else qb.where('(s.organisationId = :org OR s.organisationId IS NULL)', { org: event.organisationId });
    const streams = await qb.getMany();
    if (streams.length > 0) {
      const eventId = newEventId();
      const body = JSON.stringify(event);
      await manager.getRepository(IntegrationDelivery).insert(
        streams.map((s) => ({
          endpointId: null,
          streamId: s.id,
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
    const webhookType = webhookEventOfAudit(event.type);
    if (webhookType && event.organisationId !== null)
      await this.webhookEvent(manager, auditWebhookPayload(webhookType, event, event.organisationId));
  }
}
