import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation, managedOrganisationId } from '../../../platform/web/auth-user';
import { decrypt, encrypt } from '../../../platform/crypto/secrets';
import { RequestContext } from '../../../platform/web/request-context';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { lockRow } from '../../../platform/database/locks';
import {
  INTEGRATION_MESSAGES,
  NewWebhookEndpoint,
  RotatedWebhookSecret,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WebhookDeliveryItem,
  WebhookEndpointItem,
} from '../../../shared/administration/integrations';
import { DeliveryEngine } from '../delivery/delivery-engine.service';
import { newEventId } from '../delivery/integration-outbox';
import { ChangeWebhookDto, CreateWebhookDto } from '../dto/webhook.dto';
import { IntegrationDelivery } from '../entities/integration-delivery.entity';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity';
import { auditedUrl, receiverUrl } from '../receiver-url';

/** Deliveries GET /api/webhooks/{id}/deliveries lists, newest first. */
const DELIVERY_LOG_SIZE = 100;

/** A signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** An organisation's webhook endpoints: added (secret shown once), listed, changed, removed, their secret rotated. */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(IntegrationDelivery) private readonly deliveries: Repository<IntegrationDelivery>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
    private readonly engine: DeliveryEngine,
  ) {}

  private async organisationId(caller: AuthUser, organisationId?: number): Promise<number> {
    const id = managedOrganisationId(caller, organisationId);
    if (!(await this.organisations.existsBy({ id }))) throw AppException.notFound('Organisation not found.');
    return id;
  }

  /** The endpoint, when the caller may manage it; another organisation's is a 404 like a missing one. */
  private async endpoint(caller: AuthUser, id: number): Promise<WebhookEndpoint> {
    const row = await this.endpoints.findOneBy({ id });
    if (!row || !canAccessOrganisation(caller, row.organisationId))
      throw AppException.notFound(INTEGRATION_MESSAGES.ENDPOINT_NOT_FOUND);
    return row;
  }

  async list(caller: AuthUser, organisationId?: number): Promise<WebhookEndpointItem[]> {
    const org = await this.organisationId(caller, organisationId);
    const rows = await this.endpoints.find({ where: { organisationId: org }, order: { id: 'ASC' } });
    return rows.map(toItem);
  }

  async create(
    caller: AuthUser,
    dto: CreateWebhookDto,
    organisationId: number | undefined,
    client: RequestContext,
  ): Promise<NewWebhookEndpoint> {
    const org = await this.organisationId(caller, organisationId);
    const url = receiverUrl(dto.url, this.config.allowPrivateNetworks);
    const secret = newSecret();
    const saved = await this.endpoints.manager.transaction(async (tx) => {
      // The organisation's lock: parallel additions queue, so each counts the others'.
      await lockRow(tx, Organisation, org);
      if ((await tx.getRepository(WebhookEndpoint).countBy({ organisationId: org })) >= WEBHOOK_ENDPOINTS_MAX)
        throw AppException.conflict(INTEGRATION_MESSAGES.TOO_MANY_ENDPOINTS);
      const repo = tx.getRepository(WebhookEndpoint);
      const row = await repo.save(
        repo.create({
          organisationId: org,
          url,
          events: JSON.stringify([...new Set(dto.events)]),
          description: dto.description || null,
          enabled: true,
          disabledReason: null,
          secretSealed: encrypt(secret, this.config.encryptionKey),
          previousSecretSealed: null,
          previousSecretUntil: null,
          failingSince: null,
          createdBy: caller.email,
        }),
      );
      await this.audit.record(tx, {
        type: 'WEBHOOK_CREATED',
        actor: caller,
        organisationId: org,
        client,
        summary: `Webhook endpoint ${auditedUrl(url)} added`,
      });
      return row;
    });
    const item = toItem(saved);
    return {
      id: item.id,
      url: item.url,
      events: item.events,
      enabled: item.enabled,
      description: item.description,
      secret,
    };
  }

  async change(
    caller: AuthUser,
    id: number,
    dto: ChangeWebhookDto,
    client: RequestContext,
  ): Promise<WebhookEndpointItem> {
    const row = await this.endpoint(caller, id);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const next: Partial<WebhookEndpoint> = {};
    if (dto.url !== undefined) {
      next.url = receiverUrl(dto.url, this.config.allowPrivateNetworks);
      if (next.url !== row.url) changes.url = { from: auditedUrl(row.url), to: auditedUrl(next.url) };
    }
    if (dto.events !== undefined) {
      next.events = JSON.stringify([...new Set(dto.events)]);
      if (next.events !== row.events) changes.events = { from: JSON.parse(row.events), to: JSON.parse(next.events) };
    }
    if (dto.description !== undefined) next.description = dto.description || null;
    if (dto.enabled !== undefined && dto.enabled !== row.enabled) {
      next.enabled = dto.enabled;
      // Switched on again: its failures so far no longer count towards switching it off.
      next.disabledReason = dto.enabled ? null : 'Disabled by an administrator.';
      if (dto.enabled) next.failingSince = null;
      changes.enabled = { from: row.enabled, to: dto.enabled };
    }
    const saved = await this.endpoints.manager.transaction(async (tx) => {
      const updated = await tx.getRepository(WebhookEndpoint).update({ id }, next);
      if (!updated.affected) throw AppException.notFound(INTEGRATION_MESSAGES.ENDPOINT_NOT_FOUND);
      await this.audit.record(tx, {
        type: 'WEBHOOK_CHANGED',
        actor: caller,
        organisationId: row.organisationId,
        client,
        summary: `Webhook endpoint ${auditedUrl(next.url ?? row.url)} changed`,
        changes,
      });
      return tx.getRepository(WebhookEndpoint).findOneByOrFail({ id });
    });
    return toItem(saved);
  }

  async remove(caller: AuthUser, id: number, client: RequestContext): Promise<{ success: true }> {
    const row = await this.endpoint(caller, id);
    await this.endpoints.manager.transaction(async (tx) => {
      // Its deliveries go with it (the foreign key cascades), pending ones included.
      await tx.getRepository(IntegrationDelivery).delete({ endpointId: id });
      const deleted = await tx.getRepository(WebhookEndpoint).delete({ id });
      if (!deleted.affected) throw AppException.notFound(INTEGRATION_MESSAGES.ENDPOINT_NOT_FOUND);
      await this.audit.record(tx, {
        type: 'WEBHOOK_REMOVED',
        actor: caller,
        organisationId: row.organisationId,
        client,
        summary: `Webhook endpoint ${auditedUrl(row.url)} removed`,
      });
    });
    return { success: true };
  }

  /**
   * A new secret, shown once; the current one keeps signing beside it for WEBHOOK_SECRET_OVERLAP_HOURS so that
   * receivers can switch without losing a delivery. Rotating again within that time drops the oldest.
   */
  async rotateSecret(caller: AuthUser, id: number, client: RequestContext): Promise<RotatedWebhookSecret> {
    const row = await this.endpoint(caller, id);
    const secret = newSecret();
    const until = new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000);
    await this.endpoints.manager.transaction(async (tx) => {
      // The current secret as stored now (a parallel rotation may have changed it since it was read).
      const current = await tx.getRepository(WebhookEndpoint).findOneBy({ id });
      if (!current) throw AppException.notFound(INTEGRATION_MESSAGES.ENDPOINT_NOT_FOUND);
      // Re-encrypted rather than copied, so that a sealed value is never stored twice.
      const previous = encrypt(decrypt(current.secretSealed, this.config.encryptionKey), this.config.encryptionKey);
      const updated = await tx
        .createQueryBuilder()
        .update(WebhookEndpoint)
        .set({
          secretSealed: encrypt(secret, this.config.encryptionKey),
          previousSecretSealed: previous,
          previousSecretUntil: until,
        })
        .where('id = :id AND secretSealed = :sealed', { id, sealed: current.secretSealed })
        .execute();
      if (!updated.affected) throw AppException.conflict('The secret was rotated meanwhile: rotate it again.');
      await this.audit.record(tx, {
        type: 'WEBHOOK_SECRET_ROTATED',
        actor: caller,
        organisationId: row.organisationId,
        client,
        summary: `Signing secret of webhook endpoint ${auditedUrl(row.url)} rotated`,
      });
    });
    return { secret, previousSecretValidUntil: until.toISOString() };
  }

  /** Queues a `webhook.test` event for this endpoint alone, whatever it subscribed to. */
  async test(caller: AuthUser, id: number): Promise<WebhookDeliveryItem> {
    const row = await this.endpoint(caller, id);
    const now = new Date();
    const payload = {
      type: 'webhook.test',
      timestamp: now.toISOString(),
      data: {
        organisationId: row.organisationId,
        actor: { type: 'user', id: caller.id },
        message: 'A test event from the tax portal.',
      },
    };
    const saved = await this.deliveries.save(
      this.deliveries.create({
        endpointId: row.id,
        streamId: null,
        eventId: newEventId(),
        type: 'webhook.test',
        payload: JSON.stringify(payload),
        occurredAt: now,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
      }),
    );
    this.engine.deliverAfterCommit(this.deliveries.manager);
    return deliveryItem(saved);
  }

  async deliveriesOf(caller: AuthUser, id: number): Promise<WebhookDeliveryItem[]> {
    await this.endpoint(caller, id);
    const rows = await this.deliveries.find({
      where: { endpointId: id },
      order: { id: 'DESC' },
      take: DELIVERY_LOG_SIZE,
    });
    return rows.map(deliveryItem);
  }

  /** Makes the delivery due now: one more attempt (a failed one), or its next one sooner (a pending one). */
  async retry(caller: AuthUser, id: number, deliveryId: number): Promise<WebhookDeliveryItem> {
    await this.endpoint(caller, id);
    const now = new Date();
    const updated = await this.deliveries
      .createQueryBuilder()
      .update()
      .set({ status: 'pending', nextAttemptAt: now, finishedAt: null })
      .where('id = :deliveryId AND endpointId = :id', { deliveryId, id })
      // Not while an attempt is under way: that attempt's outcome decides.
      .andWhere('(claimedUntil IS NULL OR claimedUntil <= :now)', { now })
      .execute();
    const row = await this.deliveries.findOneBy({ id: deliveryId, endpointId: id });
    if (!row) throw AppException.notFound(INTEGRATION_MESSAGES.DELIVERY_NOT_FOUND);
    if (updated.affected) this.engine.deliverAfterCommit(this.deliveries.manager);
    return deliveryItem(row);
  }
}

function toItem(e: WebhookEndpoint): WebhookEndpointItem {
  return {
    id: e.id,
    url: e.url,
    events: JSON.parse(e.events) as string[],
    description: e.description,
    enabled: e.enabled,
    organisationId: e.organisationId,
    createdAt: new Date(e.createdAt).toISOString(),
    disabledReason: e.disabledReason,
  };
}

function deliveryItem(d: IntegrationDelivery): WebhookDeliveryItem {
  return {
    id: d.id,
    eventId: d.eventId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt ? new Date(d.nextAttemptAt).toISOString() : null,
    createdAt: new Date(d.createdAt).toISOString(),
  };
}
