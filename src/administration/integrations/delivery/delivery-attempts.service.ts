import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { decrypt } from '../../../platform/crypto/secrets';
import { SafeFetch } from '../../../platform/web/http/safe-fetch';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { organisationAdministrators } from '../../../platform/database/organisation-administrators';
import { MailService } from '../../../platform/mail/mail.service';
import { AuditEventItem } from '../../../shared/audit';
import { WEBHOOK_DISABLE_AFTER_DAYS } from '../../../shared/administration/integrations';
import { IntegrationDelivery } from '../entities/integration-delivery.entity';
import { LogStream } from '../entities/log-stream.entity';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity';
import { auditedUrl } from '../receiver-url';
import { logStreamRequest, webhookSignature } from './payload-formats';
import { Outcome, postOnce, receiverFetch } from './outbound';

const DAY_MS = 86_400_000;

/**
 * One attempt of a claimed delivery and its outcome: the request sent (a webhook signed, a log stream's batch in its
 * platform's format), the outcome written (succeeded, due again after WEBHOOK_RETRY_SCHEDULE's next wait, or failed
 * after the last attempt), and a webhook endpoint's health kept (disabled after WEBHOOK_DISABLE_AFTER_DAYS of
 * failures). Which delivery is attempted when is the {@link DeliveryEngine}'s to decide.
 */
@Injectable()
export class DeliveryAttempts {
  private readonly fetch: SafeFetch;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(IntegrationDelivery) private readonly deliveries: Repository<IntegrationDelivery>,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(LogStream) private readonly streams: Repository<LogStream>,
    private readonly mail: MailService,
    private readonly audit: AuditService,
  ) {
    this.fetch = receiverFetch(config.allowPrivateNetworks);
  }

  /** Attempts made before a delivery is failed: the first, then one per wait of the schedule. */
  get maxAttempts(): number {
    return this.config.webhookRetryScheduleMs.length + 1;
  }

  /**
   * Sends the webhook delivery `id` claimed as `token`. Nothing is returned when no request went out, or when
   * `stopping` cut it short (the claim is then released, the attempt uncounted).
   */
  async webhook(id: number, token: string, stopping: AbortSignal): Promise<Outcome | undefined> {
    const delivery = await this.deliveries.findOneBy({ id, claimedBy: token });
    if (!delivery) return;
    const endpoint = delivery.endpointId ? await this.endpoints.findOneBy({ id: delivery.endpointId }) : null;
    if (!endpoint) return;
    if (!endpoint.enabled) {
      await this.finish([delivery], token, { ok: false, statusCode: null, error: 'The endpoint is disabled.' }, true);
      return;
    }
    const now = new Date();
    const secrets = [decrypt(endpoint.secretSealed, this.config.encryptionKey)];
    if (endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now)
      secrets.push(decrypt(endpoint.previousSecretSealed, this.config.encryptionKey));
    const outcome = await postOnce(
      this.fetch,
      endpoint.url,
      {
        'content-type': 'application/json',
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': webhookSignature(secrets, delivery.eventId, now, delivery.payload),
      },
      delivery.payload,
      stopping,
    );
    if (stopping.aborted) return this.release(token).then(() => undefined);
    await this.finish([delivery], token, outcome);
    await this.endpointHealth(endpoint, outcome.ok);
    return outcome;
  }

  /** Sends the batch of log stream `streamId` claimed as `token`, oldest first; like {@link webhook} otherwise. */
  async stream(streamId: number, token: string, stopping: AbortSignal): Promise<Outcome | undefined> {
    const batch = await this.deliveries.find({ where: { claimedBy: token }, order: { id: 'ASC' } });
    const stream = await this.streams.findOneBy({ id: streamId });
    if (!stream || batch.length === 0) return this.release(token).then(() => undefined);
    const events = batch.map((d) => JSON.parse(d.payload) as AuditEventItem);
    const request = logStreamRequest(stream.type, decrypt(stream.tokenSealed, this.config.encryptionKey), events);
    const outcome = await postOnce(this.fetch, stream.url, request.headers, request.body, stopping);
    if (stopping.aborted) return this.release(token).then(() => undefined);
    await this.finish(batch, token, outcome);
    await this.streams.update(
      { id: stream.id },
      outcome.ok ? { lastDeliveredAt: new Date(), lastError: null } : { lastError: outcome.error },
    );
    return outcome;
  }

  /** Gives up a claim without counting an attempt (an attempt cut short by shutdown): due again at once. */
  private async release(token: string): Promise<void> {
    await this.deliveries.update({ claimedBy: token }, { claimedBy: null, claimedUntil: null });
  }

  /** Writes an attempt's outcome: succeeded, due again after the schedule's next wait, or failed. */
  private async finish(batch: IntegrationDelivery[], token: string, outcome: Outcome, final = false): Promise<void> {
    const now = new Date();
    // Deliveries of one batch may have made different numbers of attempts (one retried by hand): one update each.
    const byAttempts = new Map<number, number[]>();
    for (const d of batch) byAttempts.set(d.attempts, [...(byAttempts.get(d.attempts) ?? []), d.id]);
    for (const [before, ids] of byAttempts) {
      const attempts = final ? before : before + 1;
      const last = final || attempts >= this.maxAttempts;
      const wait = this.config.webhookRetryScheduleMs[Math.min(attempts, this.maxAttempts - 1) - 1];
      await this.deliveries.update(
        { id: In(ids), claimedBy: token },
        {
          attempts,
          status: outcome.ok ? 'succeeded' : last ? 'failed' : 'pending',
          nextAttemptAt: outcome.ok || last ? null : new Date(now.getTime() + wait),
          claimedBy: null,
          claimedUntil: null,
          lastStatusCode: outcome.statusCode,
          lastError: outcome.error?.slice(0, 500) ?? null,
          finishedAt: outcome.ok || last ? now : null,
        },
      );
    }
  }

  /**
   * A success clears the endpoint's failing mark; a failure sets it if unset. An endpoint failing for
   * WEBHOOK_DISABLE_AFTER_DAYS is disabled and its organisation's site admins are e-mailed, once (the conditional
   * update decides between instances).
   */
  private async endpointHealth(endpoint: WebhookEndpoint, ok: boolean): Promise<void> {
    const now = new Date();
    if (ok) {
      if (endpoint.failingSince) await this.endpoints.update({ id: endpoint.id }, { failingSince: null });
      return;
    }
    if (!endpoint.failingSince) {
      await this.endpoints
        .createQueryBuilder()
        .update()
        .set({ failingSince: now })
        .where('id = :id AND failingSince IS NULL', { id: endpoint.id })
        .execute();
      return;
    }
    if (now.getTime() - endpoint.failingSince.getTime() < WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) return;
    const reason = `Every delivery failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days.`;
    await this.endpoints.manager.transaction(async (tx) => {
      const switched = await tx
        .createQueryBuilder()
        .update(WebhookEndpoint)
        .set({ enabled: false, disabledReason: reason })
        .where('id = :id AND enabled = :on', { id: endpoint.id, on: true })
        .execute();
      if (!switched.affected) return;
      await this.audit.record(tx, {
        type: 'WEBHOOK_DISABLED',
        actor: 'service',
        organisationId: endpoint.organisationId,
        summary: `Webhook endpoint ${auditedUrl(endpoint.url)} disabled: ${reason}`,
      });
      for (const admin of await organisationAdministrators(tx, endpoint.organisationId)) {
        await this.mail.send(
          {
            to: admin.email,
            subject: 'A webhook endpoint of your organisation was disabled',
            text:
              `Every delivery to the webhook endpoint ${endpoint.url} failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days, ` +
              'so the portal stopped sending to it.\n\n' +
              `Its delivery log shows why. Once the receiver answers again, enable it on the Integrations page: ${this.config.publicUrl}/integrations\n`,
          },
          tx,
        );
      }
    });
  }
}
