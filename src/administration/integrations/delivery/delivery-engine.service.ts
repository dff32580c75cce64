import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, LessThan, Not, Repository } from 'typeorm';
import { Drain, drainFailureHandler } from '../../../platform/jobs/drain';
import { WakeAfterCommit } from '../../../platform/jobs/wake-after-commit';
import { EngineState } from '../../../platform/web/engine-state';
import { LOG_STREAM_BATCH_MAX } from '../../../shared/administration/integrations';
import { IntegrationDelivery } from '../entities/integration-delivery.entity';
import { LogStream } from '../entities/log-stream.entity';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity';
import { DeliveryAttempts } from './delivery-attempts.service';
import { OUTBOUND_ANSWER_MS, OUTBOUND_CONNECT_MS, Outcome } from './outbound';

const DAY_MS = 86_400_000;

/** Webhooks and log streams have their own slots, so a backlog of one never delays the other. */
type Lane = 'webhook' | 'stream';

/** How many attempts of a lane one instance makes at once: in all, for one organisation, for one receiver. */
interface LaneLimits {
  slots: number;
  perOrganisation: number;
  perReceiver: number;
}

/** A receiver's run of timeouts, and until when it is left alone. */
interface Circuit {
  timeouts: number;
  openUntil: number;
}

/** What a lane's scan finds: a receiver with due deliveries, the organisation it belongs to, and its oldest row. */
interface DueReceiver {
  receiverId: number;
  organisationId: number;
  firstId: number;
}

/**
 * Sends what the outbox holds, on every instance, as a continuous pool: each lane (webhooks, log streams) has its
 * own slots, and a slot that frees takes the next due delivery at once. Due deliveries are taken oldest first among
 * the receivers and organisations still under their limits ({@link limits}), so no organisation or endpoint holds
 * back another's. A receiver whose attempts keep timing out is backed off ({@link circuitAfter}): its deliveries wait,
 * uncounted, while one probe at a time tells whether it answers again.
 *
 * A delivery is taken with a conditional UPDATE that only one instance can win (a webhook's delivery alone, a log
 * stream's up to 100 at once) and handed to {@link DeliveryAttempts}, which sends it and writes its outcome. A claim
 * runs out after {@link claimMs}, so the work of an instance killed mid-attempt is taken over. Works alike on SQLite
 * (every statement through the serialiser) and PostgreSQL; no Redis needed.
 */
@Injectable()
export class DeliveryEngine implements OnApplicationBootstrap, OnModuleDestroy {
  /** How long an attempt may take before another instance may take the delivery over: twice the longest attempt. */
  claimMs = 2 * (OUTBOUND_CONNECT_MS + OUTBOUND_ANSWER_MS);
  /** How often each instance looks for due deliveries (log streams: well within their 10 s). */
  pollMs = 1_000;
  /** Finished deliveries are kept this long for the delivery log. */
  static readonly KEEP_FINISHED_MS = 30 * DAY_MS;
  /** Rows read by one scan of a lane: due webhook deliveries, or log streams with due deliveries. */
  private static readonly SCAN = 100;
  /**
   * Per instance. A webhook endpoint takes two attempts at once (one while it is timing out), an organisation half a
   * lane, so the other half is always there for the others; a log stream sends one batch at a time, in order.
   */
  readonly limits: Record<Lane, LaneLimits> = {
    webhook: { slots: 8, perOrganisation: 4, perReceiver: 2 },
    stream: { slots: 4, perOrganisation: 2, perReceiver: 1 },
  };
  /** Consecutive timeouts after which a receiver is backed off. */
  circuitAfter = 2;
  /** The first back-off; each further timeout of its probe doubles it, up to {@link circuitMaxMs}. */
  circuitBaseMs = 30_000;
  circuitMaxMs = 10 * 60_000;

  private readonly logger = new Logger('Integrations');
  private readonly instance = randomBytes(6).toString('hex');
  private claims = 0;
  private timer?: NodeJS.Timeout;
  /** Fills the lanes' free slots, one run at a time; a run asked for meanwhile follows the running one. */
  private readonly drain = new Drain({
    pass: () => this.fill(),
    afterPasses: () => this.pruneFinished(),
    failed: (e) => drainFailureHandler('delivery outbox', this.logger, this.engines)(e),
  });
  /** Attempts under way, and what they hold: per lane, per organisation (`lane:org`), per receiver (`lane:id`). */
  private readonly attempts = new Set<Promise<void>>();
  private readonly busy = new Map<string, number>();
  private readonly circuits = new Map<string, Circuit>();
  private lastPrunedAt = 0;
  /** Aborted at shutdown: attempts under way stop, and their deliveries are released for the next start. */
  private readonly stopping = new AbortController();
  private readonly commits: WakeAfterCommit;

  constructor(
    @InjectRepository(IntegrationDelivery) private readonly deliveries: Repository<IntegrationDelivery>,
    private readonly attempt: DeliveryAttempts,
    dataSource: DataSource,
    @Optional() private readonly engines?: EngineState,
  ) {
    this.commits = new WakeAfterCommit(() => this.wake(), dataSource);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    await this.drain.stop();
    await Promise.allSettled([...this.attempts]);
  }

  /** Wakes the engine once the transaction of `manager` commits (at once when it is not in one). */
  deliverAfterCommit(manager: EntityManager): void {
    this.commits.after(manager);
  }

  /** Fills the free slots now (or right after the run under way). */
  private wake(): void {
    void this.drain.kick();
  }

  /**
   * Fills the free slots now, and resolves once no attempt is under way and no due delivery could be started
   * (what is left waits for its time, a receiver's back-off, or a claim of another instance).
   */
  async kick(): Promise<void> {
    await this.drain.kick();
    while (this.attempts.size > 0) {
      await Promise.allSettled([...this.attempts]);
      await this.drain.kick();
    }
  }

  /** A circuit's state for a receiver, and the limit it leaves it: none while open, one probe after a timeout. */
  private receiverRoom(lane: Lane, receiverId: number, now: number): number {
    const key = `${lane}:${receiverId}`;
    const circuit = this.circuits.get(key);
    if (circuit && circuit.openUntil > now) return 0;
    const limit = circuit ? 1 : this.limits[lane].perReceiver;
    return limit - (this.busy.get(`r:${key}`) ?? 0);
  }

  private organisationRoom(lane: Lane, organisationId: number): number {
    return this.limits[lane].perOrganisation - (this.busy.get(`o:${lane}:${organisationId}`) ?? 0);
  }

  private laneRoom(lane: Lane): number {
    return this.limits[lane].slots - (this.busy.get(`l:${lane}`) ?? 0);
  }

  /** The receivers and organisations of a lane that can take no attempt now: left out of its scan. */
  private saturated(lane: Lane, now: number): { receivers: number[]; organisations: number[] } {
    const receivers = new Set<number>();
    const organisations: number[] = [];
    for (const key of this.busy.keys()) {
      const [kind, keyLane, id] = key.split(':');
      if (keyLane !== lane) continue;
      if (kind === 'r' && this.receiverRoom(lane, Number(id), now) <= 0) receivers.add(Number(id));
      if (kind === 'o' && this.organisationRoom(lane, Number(id)) <= 0) organisations.push(Number(id));
    }
    for (const [key, circuit] of this.circuits) {
      const [keyLane, id] = key.split(':');
      if (keyLane === lane && circuit.openUntil > now) receivers.add(Number(id));
    }
    return { receivers: [...receivers], organisations };
  }

  /** One run: log streams' free slots, then webhooks', each filled until a scan starts nothing. */
  private async fill(): Promise<void> {
    for (const lane of ['stream', 'webhook'] as const) {
      while (!this.drain.isStopped && this.laneRoom(lane) > 0) {
        if ((await this.fillLane(lane)) === 0) break;
      }
    }
  }

  /** Scans a lane's due deliveries (oldest first, past saturated receivers and organisations); starts what fits. */
  private async fillLane(lane: Lane): Promise<number> {
    const now = new Date();
    const due = await this.dueReceivers(lane, now);
    let started = 0;
    for (const d of due) {
      if (this.drain.isStopped || this.laneRoom(lane) <= 0) break;
      if (this.organisationRoom(lane, d.organisationId) <= 0) continue;
      if (this.receiverRoom(lane, d.receiverId, now.getTime()) <= 0) continue;
      const claimed =
        lane === 'webhook' ? await this.claim([d.firstId]) : await this.claimStreamBatch(d.receiverId, now);
      if (claimed.taken === 0) continue;
      this.start(lane, d, () =>
        lane === 'webhook'
          ? this.attempt.webhook(d.firstId, claimed.token, this.stopping.signal)
          : this.attempt.stream(d.receiverId, claimed.token, this.stopping.signal),
      );
      started++;
    }
    return started;
  }

  /**
   * A lane's due, unclaimed deliveries with their organisation (0: a log stream of every organisation), oldest
   * first: each webhook delivery, or each log stream once with its oldest.
   */
  private async dueReceivers(lane: Lane, now: Date): Promise<DueReceiver[]> {
    const { receivers, organisations } = this.saturated(lane, now.getTime());
    const qb = this.deliveries
      .createQueryBuilder('d')
      .where("d.status = 'pending' AND d.nextAttemptAt <= :now", { now })
      .andWhere('(d.claimedUntil IS NULL OR d.claimedUntil <= :now)', { now });
    if (lane === 'webhook') {
      qb.innerJoin(WebhookEndpoint, 'r', 'r.id = d.endpointId')
        .select('d.endpointId', 'receiverId')
        .addSelect('r.organisationId', 'organisationId')
        .addSelect('d.id', 'firstId')
        .orderBy('d.id', 'ASC');
      if (receivers.length) qb.andWhere('d.endpointId NOT IN (:...receivers)', { receivers });
      if (organisations.length) qb.andWhere('r.organisationId NOT IN (:...organisations)', { organisations });
    } else {
      qb.innerJoin(LogStream, 'r', 'r.id = d.streamId')
        .select('d.streamId', 'receiverId')
        .addSelect('COALESCE(r.organisationId, 0)', 'organisationId')
        .addSelect('MIN(d.id)', 'firstId')
        .groupBy('d.streamId')
        .addGroupBy('r.organisationId')
        .orderBy('"firstId"', 'ASC');
      if (receivers.length) qb.andWhere('d.streamId NOT IN (:...receivers)', { receivers });
      if (organisations.length)
        qb.andWhere('COALESCE(r.organisationId, 0) NOT IN (:...organisations)', { organisations });
    }
    const rows = await qb.limit(DeliveryEngine.SCAN).getRawMany<Record<keyof DueReceiver, number | string>>();
    return rows.map((r) => ({
      receiverId: Number(r.receiverId),
      organisationId: Number(r.organisationId),
      firstId: Number(r.firstId),
    }));
  }

  /** Runs an attempt in a slot; when it ends, the slot is free and the lanes are filled again. */
  private start(lane: Lane, d: DueReceiver, attempt: () => Promise<Outcome | undefined>): void {
    const keys = [`l:${lane}`, `o:${lane}:${d.organisationId}`, `r:${lane}:${d.receiverId}`];
    for (const key of keys) this.busy.set(key, (this.busy.get(key) ?? 0) + 1);
    const run: Promise<void> = attempt()
      .then((outcome) => {
        if (outcome) this.observe(`${lane}:${d.receiverId}`, outcome);
      })
      .catch((e: unknown) => this.logger.error(`A delivery could not be attempted: ${(e as Error).message}`))
      .finally(() => {
        for (const key of keys) {
          const left = (this.busy.get(key) ?? 1) - 1;
          if (left > 0) this.busy.set(key, left);
          else this.busy.delete(key);
        }
        this.attempts.delete(run);
        if (!this.drain.isStopped) this.wake();
      });
    this.attempts.add(run);
  }

  /**
   * Keeps a receiver's run of timeouts: from {@link circuitAfter} in a row it is left alone for a while, doubling
   * with each further timeout; any answer (or a quick refusal, which holds no slot) ends the run.
   */
  private observe(key: string, outcome: Outcome): void {
    if (!outcome.timedOut) {
      this.circuits.delete(key);
      return;
    }
    const timeouts = (this.circuits.get(key)?.timeouts ?? 0) + 1;
    const backOff =
      timeouts < this.circuitAfter
        ? 0
        : Math.min(this.circuitBaseMs * 2 ** (timeouts - this.circuitAfter), this.circuitMaxMs);
    this.circuits.set(key, { timeouts, openUntil: Date.now() + backOff });
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

  /** Takes a log stream's due deliveries, the oldest 100, as one batch. */
  private async claimStreamBatch(streamId: number, now: Date): Promise<{ token: string; taken: number }> {
    const ids = await this.deliveries
      .createQueryBuilder('d')
      .select('d.id')
      .where("d.streamId = :streamId AND d.status = 'pending' AND d.nextAttemptAt <= :now", { streamId, now })
      .andWhere('(d.claimedUntil IS NULL OR d.claimedUntil <= :now)', { now })
      .orderBy('d.id', 'ASC')
      .limit(LOG_STREAM_BATCH_MAX)
      .getMany();
    if (ids.length === 0) return { token: '', taken: 0 };
    return this.claim(ids.map((d) => d.id));
  }

  /** Deletes deliveries finished long ago, and forgets back-offs long over, at most once an hour. */
  private async pruneFinished(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrunedAt < 3_600_000) return;
    this.lastPrunedAt = now;
    // A back-off over for an hour with no probe since: the receiver has nothing due, or is gone.
    for (const [key, circuit] of this.circuits) if (circuit.openUntil < now - 3_600_000) this.circuits.delete(key);
    await this.deliveries.delete({
      status: Not('pending'),
      finishedAt: LessThan(new Date(now - DeliveryEngine.KEEP_FINISHED_MS)),
    });
  }
}
