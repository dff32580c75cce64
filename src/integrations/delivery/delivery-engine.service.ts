import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  In,
  LessThan,
  Not,
  QueryRunner,
  Repository,
  TransactionCommitEvent,
} from 'typeorm';
import { AuditService } from '../../audit';
import { decrypt } from '../../common/crypto/secrets';
import { Drain } from '../../common/drain';
import { EngineState } from '../../common/engine-state';
import { unavailableEngine } from '../../common/engine-unavailable';
import { SafeFetch } from '../../common/http/safe-fetch';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';
import { organisationAdministrators } from '../../database/organisation-administrators';
import { MailService } from '../../mail/mail.service';
import { AuditEventItem } from '../../shared/audit';
import { LOG_STREAM_BATCH_MAX, WEBHOOK_DISABLE_AFTER_DAYS } from '../../shared/integrations';
import { IntegrationDelivery } from '../entities/integration-delivery.entity';
import { LogStream } from '../entities/log-stream.entity';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity';
import { auditedUrl } from '../receiver-url';
import { logStreamRequest, webhookSignature } from './formats';
import { OUTBOUND_ANSWER_MS, OUTBOUND_CONNECT_MS, Outcome, postOnce, receiverFetch } from './outbound';

const DAY_MS = 86_400_000;

/**
 * Sends what the outbox holds, on every instance: each pass reads the due deliveries, takes each (a webhook's
 * delivery alone, a log stream's up to 100 at once) with a conditional UPDATE that only one instance can win, makes
 * the attempt, and writes its outcome. A failure is retried on WEBHOOK_RETRY_SCHEDULE; after the last attempt the
 * delivery is failed. A claim runs out after {@link claimMs}, so the work of an instance killed mid-attempt is
 * taken over. Works alike on SQLite (every statement through the serialiser) and PostgreSQL; no Redis needed.
 */
@Injectable()
export class DeliveryEngine implements OnApplicationBootstrap, OnModuleDestroy, EntitySubscriberInterface {
  /** How long an attempt may take before another instance may take the delivery over: twice the longest attempt. */
  claimMs = 2 * (OUTBOUND_CONNECT_MS + OUTBOUND_ANSWER_MS);
  /** How often each instance looks for due deliveries (log streams: well within their 10 s). */
  pollMs = 1_000;
  /** Finished deliveries are kept this long for the delivery log. */
  static readonly KEEP_FINISHED_MS = 30 * DAY_MS;
  private static readonly BATCH = 50;
  /** Attempts made at once by one instance. */
  private static readonly PARALLEL = 8;

  private readonly logger = new Logger('Integrations');
  private readonly instance = randomBytes(6).toString('hex');
  private claims = 0;
  private fetch: SafeFetch;
  private timer?: NodeJS.Timeout;
  private readonly drain = new Drain({
    pass: () => this.deliverDue(),
    afterPasses: () => this.pruneFinished(),
    failed: (e) => {
      // The database gone: its outage is logged once (EngineState), and the next poll tries again.
      const engine = unavailableEngine(e);
      if (engine && this.engines) this.engines.down(engine, e);
      else this.logger.error(`The delivery outbox could not be read: ${(e as Error).message}`);
    },
  });
  private lastPrunedAt = 0;
  /** Aborted at shutdown: attempts under way stop, and their deliveries are released for the next start. */
  private readonly stopping = new AbortController();
  private readonly awaitingCommit = new WeakSet<QueryRunner>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(IntegrationDelivery) private readonly deliveries: Repository<IntegrationDelivery>,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(LogStream) private readonly streams: Repository<LogStream>,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    dataSource: DataSource,
    @Optional() private readonly engines?: EngineState,
  ) {
    this.fetch = receiverFetch(config.allowPrivateNetworks);
    dataSource.subscribers.push(this);
  }

  /** Attempts made before a delivery is failed: the first, then one per wait of the schedule. */
  get maxAttempts(): number {
    return this.config.webhookRetryScheduleMs.length + 1;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.kick(), this.pollMs);
    this.timer.unref();
    void this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    await this.drain.stop();
  }

  /** Wakes the engine once the transaction of `manager` commits (at once when it is not in one). */
  deliverAfterCommit(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) this.awaitingCommit.add(runner);
    else setImmediate(() => void this.kick());
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    if (event.queryRunner.isTransactionActive || !this.awaitingCommit.has(event.queryRunner)) return;
    this.awaitingCommit.delete(event.queryRunner);
    setImmediate(() => void this.kick());
  }

  /** Runs a pass now, or one more after the running one; resolves when no pass is running. */
  kick(): Promise<void> {
    return this.drain.kick();
  }

  /** Every due delivery, oldest first, a batch at a time. */
  private async deliverDue(): Promise<void> {
    for (;;) {
      if (this.drain.isStopped) return;
      const now = new Date();
      const due = await this.deliveries
        .createQueryBuilder('d')
        .select(['d.id', 'd.endpointId', 'd.streamId'])
        .where("d.status = 'pending' AND d.nextAttemptAt <= :now", { now })
        .andWhere('(d.claimedUntil IS NULL OR d.claimedUntil <= :now)', { now })
        .orderBy('d.id', 'ASC')
        .limit(DeliveryEngine.BATCH)
        .getMany();
      if (due.length === 0) return;
      const work: Array<() => Promise<void>> = [];
      for (const d of due) if (d.endpointId !== null) work.push(() => this.deliverWebhook(d.id));
      for (const streamId of new Set(due.filter((d) => d.streamId !== null).map((d) => d.streamId!)))
        work.push(() => this.deliverStream(streamId));
      await inParallel(work, DeliveryEngine.PARALLEL, (e) =>
        this.logger.error(`A delivery could not be attempted: ${(e as Error).message}`),
      );
      if (due.length < DeliveryEngine.BATCH) return;
    }
  }

  /** Takes the due deliveries among `ids` for this instance; returns the claim's name, and how many it took. */
  private async claim(ids: number[]): Promise<{ token: string; taken: number }> {
    const now = new Date();
    const token = `${this.instance}:${++this.claims}`;
    const result = await this.deliveries
      .createQueryBuilder()
      .update()
      .set({ claimedBy: token, claimedUntil: new Date(now.getTime() + this.claimMs) })
      .where('id IN (:...ids)', { ids })
      .andWhere("status = 'pending' AND nextAttemptAt <= :now", { now })
      .andWhere('(claimedUntil IS NULL OR claimedUntil <= :now)', { now })
      .execute();
    return { token, taken: result.affected ?? 0 };
  }

  private async deliverWebhook(id: number): Promise<void> {
    const { token, taken } = await this.claim([id]);
    if (taken === 0) return;
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
      this.stopping.signal,
    );
    if (this.stopping.signal.aborted) return this.release(token);
    await this.finish([delivery], token, outcome);
    await this.endpointHealth(endpoint, outcome.ok);
  }

  private async deliverStream(streamId: number): Promise<void> {
    const now = new Date();
    const ids = await this.deliveries
      .createQueryBuilder('d')
      .select('d.id')
      .where("d.streamId = :streamId AND d.status = 'pending' AND d.nextAttemptAt <= :now", { streamId, now })
      .andWhere('(d.claimedUntil IS NULL OR d.claimedUntil <= :now)', { now })
      .orderBy('d.id', 'ASC')
      .limit(LOG_STREAM_BATCH_MAX)
      .getMany();
    if (ids.length === 0) return;
    const { token, taken } = await this.claim(ids.map((d) => d.id));
    if (taken === 0) return;
    const batch = await this.deliveries.find({ where: { claimedBy: token }, order: { id: 'ASC' } });
    const stream = await this.streams.findOneBy({ id: streamId });
    if (!stream || batch.length === 0) return;
    const events = batch.map((d) => JSON.parse(d.payload) as AuditEventItem);
    const request = logStreamRequest(stream.type, decrypt(stream.tokenSealed, this.config.encryptionKey), events);
    const outcome = await postOnce(this.fetch, stream.url, request.headers, request.body, this.stopping.signal);
    if (this.stopping.signal.aborted) return this.release(token);
    await this.finish(batch, token, outcome);
    await this.streams.update(
      { id: stream.id },
      outcome.ok ? { lastDeliveredAt: new Date(), lastError: null } : { lastError: outcome.error },
    );
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

  /** Deletes deliveries finished long ago, at most once an hour. */
  private async pruneFinished(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrunedAt < 3_600_000) return;
    this.lastPrunedAt = now;
    await this.deliveries.delete({
      status: Not('pending'),
      finishedAt: LessThan(new Date(now - DeliveryEngine.KEEP_FINISHED_MS)),
    });
  }
}

/** Runs the tasks, at most `limit` at a time. */
async function inParallel(
  tasks: Array<() => Promise<void>>,
  limit: number,
  onError: (e: unknown) => void,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]().catch(onError);
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}
