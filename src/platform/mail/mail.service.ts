import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as nodemailer from 'nodemailer';
import { DataSource, EntityManager, IsNull, LessThanOrEqual, Repository } from 'typeorm';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { MetricsService } from '../metrics/metrics.service';
import { OutboxMessage } from './entities/outbox-message.entity';
import { Drain, drainFailureHandler } from '../jobs/drain';
import { WakeAfterCommit } from '../jobs/wake-after-commit';
import { EngineState } from '../web/engine-state';

/** Work stored with the mail and done after the answer; it may send mail itself (MailService.send). */
export type OutboxTask = (payload: unknown) => Promise<void>;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/** Waits before the n-th retry (n ≥ 1): 5 s, 10 s, 20 s … doubling, at most one hour. */
export function retryDelayMs(attempts: number, baseMs = MailService.RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MailService.RETRY_MAX_MS);
}

/**
 * The product's outgoing e-mail, through an outbox: `send` stores the message (so it survives a crash
 * or an SMTP outage) and returns; delivery follows in the background at once, failures are retried
 * with a growing delay, and messages left undelivered are resumed at start. Requests therefore answer
 * without waiting for SMTP, in the same time whether or not they cause a message (docs/decisions/platform.md).
 *
 * Delivery: nodemailer over SMTP when SMTP_URL is set; otherwise each message is written as an .eml file
 * to DATA_DIR/outbox and its subject and links are logged, so one machine completes every flow.
 */
@Injectable()
export class MailService implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly RETRY_BASE_MS = 5_000;
  static readonly RETRY_MAX_MS = 60 * 60 * 1000;
  /** How long a delivery may take before another instance may take the message over. */
  static readonly CLAIM_MS = 2 * 60 * 1000;
  private static readonly BATCH = 20;
  static readonly SWEEP_MS = 30_000;
  /** Delivered rows are kept this long (for support questions), then deleted. */
  static readonly KEEP_SENT_MS = 7 * 24 * 60 * 60 * 1000;
  private lastPrunedAt = 0;

  private readonly logger = new Logger('Mail');
  private readonly transport: nodemailer.Transporter;
  private readonly outbox?: string;
  /** The running delivery pass, if any; a request arriving meanwhile asks for one more pass. */
  private retryTimer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private readonly drain = new Drain({
    pass: () => this.deliverDue(),
    afterPasses: () => this.pruneSent(),
    failed: (e) => drainFailureHandler('mail outbox', this.logger, this.engines)(e),
    settled: () => this.scheduleNextRetry(),
  });
  /** Base of the retry backoff (tests shorten it). */
  retryBaseMs = MailService.RETRY_BASE_MS;
  private readonly tasks = new Map<string, OutboxTask>();
  /** Delivers what a transaction stored as soon as it commits. */
  private readonly commits: WakeAfterCommit;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(OutboxMessage) private readonly messages: Repository<OutboxMessage>,
    @Optional() dataSource?: DataSource,
    @Optional() private readonly metrics?: MetricsService,
    @Optional() private readonly engines?: EngineState,
  ) {
    this.commits = new WakeAfterCommit(() => void this.kick(), dataSource);
    if (config.smtpUrl) {
      this.transport = nodemailer.createTransport(config.smtpUrl);
    } else {
      this.outbox = join(config.dataDir, 'outbox');
      mkdirSync(this.outbox, { recursive: true });
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    }
  }

  /**
   * Stores the message for delivery and starts delivering it in the background; resolves once it is stored.
   * Inside a transaction, pass its manager: the message is then committed (or rolled back) with the change.
   */
  async send(mail: OutgoingMail, manager?: EntityManager): Promise<void> {
    await (manager ? manager.getRepository(OutboxMessage) : this.messages).insert({
      kind: 'mail',
      payload: null,
      to: mail.to,
      replyTo: mail.replyTo ?? null,
      subject: mail.subject,
      text: mail.text,
      attempts: 0,
      nextAttemptAt: new Date(),
      claimedUntil: null,
      sentAt: null,
      lastError: null,
    });
    this.commits.after(manager);
  }

  /** Names the handler of a kind of task (at module init, before stored tasks are resumed). */
  registerTask(kind: string, handler: OutboxTask): void {
    this.tasks.set(kind, handler);
  }

  /**
   * Stores a task and returns: a request answers in the same time whatever the task will find (whether an
   * account exists, say); the task runs in the background like a message, retried until it succeeds.
   */
  async enqueueTask(kind: string, payload: unknown): Promise<void> {
    await this.messages.insert({
      kind,
      payload: JSON.stringify(payload),
      to: '',
      replyTo: null,
      subject: '',
      text: '',
      attempts: 0,
      nextAttemptAt: new Date(),
      claimedUntil: null,
      sentAt: null,
      lastError: null,
    });
    setImmediate(() => void this.kick());
  }

  /**
   * Resumes whatever an earlier run left undelivered, and sweeps every half minute: a message stored inside a
   * transaction becomes visible only at its commit, after the kick of `send`.
   */
  onApplicationBootstrap(): void {
    void this.kick();
    this.sweepTimer = setInterval(() => void this.kick(), MailService.SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** Stops before the database closes (which happens at application shutdown), finishing the message under way. */
  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.retryTimer);
    clearInterval(this.sweepTimer);
    await this.drain.stop();
  }

  /** Runs a delivery pass now, or one more after the running one. Resolves when no pass is running. */
  kick(): Promise<void> {
    return this.drain.kick();
  }

  /** Delivers every message that is due, oldest first. */
  private async deliverDue(): Promise<void> {
    for (;;) {
      if (this.drain.isStopped) return;
      const now = new Date();
      const due = await this.messages.find({
        where: { sentAt: IsNull(), nextAttemptAt: LessThanOrEqual(now) },
        order: { id: 'ASC' },
        take: MailService.BATCH,
      });
      const claimable = due.filter((m) => !m.claimedUntil || m.claimedUntil <= now);
      if (claimable.length === 0) return;
      for (const message of claimable) {
        if (this.drain.isStopped) return;
        if (await this.claim(message, now)) await this.attempt(message);
      }
    }
  }

  /** Deletes rows delivered more than a week ago, at most once an hour. */
  private async pruneSent(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrunedAt < 60 * 60 * 1000) return;
    this.lastPrunedAt = now;
    await this.messages.delete({ sentAt: LessThanOrEqual(new Date(now - MailService.KEEP_SENT_MS)) });
  }

  /** Takes the message for this process (several instances may share the outbox on PostgreSQL). */
  private async claim(message: OutboxMessage, now: Date): Promise<boolean> {
    const claimedUntil = new Date(now.getTime() + MailService.CLAIM_MS);
    const qb = this.messages
      .createQueryBuilder()
      .update()
      .set({ claimedUntil })
      .where('id = :id AND sentAt IS NULL', { id: message.id })
      .andWhere('(claimedUntil IS NULL OR claimedUntil <= :now)', { now });
    return ((await qb.execute()).affected ?? 0) > 0;
  }

  private async attempt(message: OutboxMessage): Promise<void> {
    try {
      if (message.kind === 'mail') {
        await this.deliver(message);
      } else {
        const task = this.tasks.get(message.kind);
        if (!task) throw new Error(`No handler for the task '${message.kind}'.`);
        await task(message.payload ? JSON.parse(message.payload) : undefined);
      }
      // Once delivered, the body goes: it may carry a temporary password or a reset link (the row stays a week as a record).
      await this.messages.update(
        { id: message.id },
        { sentAt: new Date(), claimedUntil: null, lastError: null, payload: null, text: '' },
      );
    } catch (e) {
      const attempts = message.attempts + 1;
      const delay = retryDelayMs(attempts, this.retryBaseMs);
      await this.messages.update(
        { id: message.id },
        {
          attempts,
          nextAttemptAt: new Date(Date.now() + delay),
          claimedUntil: null,
          lastError: String((e as Error).message ?? e).slice(0, 500),
        },
      );
      if (this.config.logLevel !== 'silent') {
        this.logger.warn(
          `${message.kind === 'mail' ? `E-mail ${message.id} to ${message.to}` : `Task ${message.id} (${message.kind})`} not done (attempt ${attempts}), retrying in ${Math.round(delay / 1000)} s: ${(e as Error).message}`,
        );
      }
    }
  }

  /** Hands one message to the transport (SMTP, or an .eml file in DATA_DIR/outbox). */
  protected async deliver(message: OutboxMessage): Promise<void> {
    const mail = {
      from: this.config.mailFrom,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    };
    const sending = this.transport.sendMail(mail);
    const info = await (this.metrics ? this.metrics.trackMail(sending) : sending);
    if (this.outbox) {
      const file = join(
        this.outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(message.id).padStart(8, '0')}-${randomBytes(4).toString('hex')}.eml`,
      );
      writeFileSync(file, (info as unknown as { message: Buffer }).message);
      // The file, not its links: a link carries a live token (a reset, an invitation), which no log line may.
      if (this.config.logLevel !== 'silent')
        this.logger.log(`E-mail to ${message.to} written to ${file}: "${message.subject}"`);
    }
  }

  /** Wakes up when the earliest failed message is due again. */
  private async scheduleNextRetry(): Promise<void> {
    if (this.drain.isStopped) return;
    clearTimeout(this.retryTimer);
    const next = await this.messages
      .findOne({ where: { sentAt: IsNull() }, order: { nextAttemptAt: 'ASC' } })
      .catch(() => null);
    if (!next || this.drain.isStopped) return;
    const due = Math.max(next.nextAttemptAt.getTime(), next.claimedUntil?.getTime() ?? 0);
    const wait = Math.min(due - Date.now(), MailService.RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => void this.kick(), Math.max(wait, 10));
    this.retryTimer.unref();
  }
}
