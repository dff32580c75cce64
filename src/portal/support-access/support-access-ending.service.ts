import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AuthUser } from '../../platform/web/auth-user';
import { runPeriodically } from '../../platform/jobs/periodic';
import { ClientInfo } from '../../platform/web/request-context';
import { User } from '../../platform/database/entities/user.entity';
import {
  SESSION_ENDED,
  SESSION_POLICY_CHANGED,
  SessionEnded,
  SessionPolicyChanged,
  SessionsService,
} from '../../identity/sessions';
import { SUPPORT_ACCESS_END_REASONS, SupportAccessEndReason } from '../../shared/portal/support-access';
import { SupportAccess } from './entities/support-access.entity';
import { SupportAccessMail } from './support-access-mail';
import { SupportAccessQueries } from './support-access-queries.service';

/** How often started sessions past their end, and requests past their lapse, are looked for. */
const SWEEP_EVERY_MS = 60_000;

/** Who ends a support access: an account (the E-Support account, a site admin), or the product itself. */
export type Ender = AuthUser | 'service';

/**
 * The end of a running support access, whoever ends it: stopped by hand ({@link SupportAccessSessions}), at its end
 * (the sweep, once a minute), by a log-off or force log-off of its session, or when the organisation turns support
 * access off. It ends once, audited (the `support_access.ended` webhook), and the member is e-mailed.
 */
@Injectable()
export class SupportAccessEnding implements OnModuleDestroy, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SupportAccessEnding.name);
  private stopSweep?: () => void;
  /** Whether the sessions' events still reach it: no longer once the module is being destroyed. */
  private listening = true;

  constructor(
    @InjectRepository(SupportAccess) private readonly requests: Repository<SupportAccess>,
    private readonly audit: AuditService,
    private readonly mail: SupportAccessMail,
    private readonly sessions: SessionsService,
    private readonly queries: SupportAccessQueries,
  ) {}

  /** A support session ended by any other path (log-off, force log-off, its end found by the session check). */
  @OnEvent(SESSION_ENDED)
  onSessionEnded({ sessionId }: SessionEnded): void {
    if (this.listening) void this.sessionEnded(sessionId).catch((e) => this.failed(e));
  }

  /** A policy turned to 'never' ends the organisation's running support accesses. */
  @OnEvent(SESSION_POLICY_CHANGED)
  onPolicyChanged({ organisationId }: SessionPolicyChanged): void {
    if (this.listening) void this.policyChanged(organisationId).catch((e) => this.failed(e));
  }

  onModuleDestroy(): void {
    this.listening = false;
  }

  onApplicationBootstrap(): void {
    this.stopSweep = runPeriodically(() => this.sweep(), {
      firstDelayMs: SWEEP_EVERY_MS,
      everyMs: SWEEP_EVERY_MS,
      logger: this.logger,
      what: 'Support access sweep',
    });
  }

  onApplicationShutdown(): void {
    this.stopSweep?.();
  }

  /**
   * Ends a running support access once (parallel ends record it once): its state first, which refuses its session
   * on the next call on every instance, with the audit event (the `support_access.ended` webhook) and the member's
   * e-mail in the same transaction; then its session, whose sockets close. Answers whether this call ended it.
   */
  async finish(id: number, reason: SupportAccessEndReason, by: Ender, client?: ClientInfo): Promise<boolean> {
    const now = new Date(Date.now());
    const ended = await this.requests.manager.transaction(async (tx) => {
      const updated = await tx
        .getRepository(SupportAccess)
        .update({ id, status: 'active' }, { status: 'ended', endedAt: now, endReason: reason });
      if (!updated.affected) return null;
      const row = await tx.getRepository(SupportAccess).findOneByOrFail({ id });
      const member = await tx.getRepository(User).findOneByOrFail({ id: row.userId });
      await this.audit.record(tx, {
        type: 'SUPPORT_ACCESS_ENDED',
        actor: by,
        target: member,
        client: client ?? null,
        supportAccessId: id,
        summary: `Support access as ${member.email} by ${row.supportUserEmail} ended: ${SUPPORT_ACCESS_END_REASONS[reason]}`,
      });
      await this.mail.ended(tx, member, row, now);
      return row;
    });
    if (!ended) return false;
    if (ended.sessionId) await this.sessions.end(ended.sessionId, 'support-ended');
    return true;
  }

  /** Ends the support accesses past their end, and marks the requests past their lapse expired; answers how many ended. */
  async sweep(now = Date.now()): Promise<number> {
    const at = new Date(now);
    await this.requests
      .createQueryBuilder()
      .update(SupportAccess)
      .set({ status: 'expired' })
      .where('status IN (:...open) AND "expiresAt" <= :at', { open: ['pending', 'approved'], at })
      .execute();
    const due = await this.requests.findBy({ status: 'active', endsAt: LessThanOrEqual(at) });
    let ended = 0;
    for (const row of due) if (await this.finish(row.id, 'time-limit', 'service')) ended++;
    return ended;
  }

  /** A session ended by another path: its support access (when it is one still running) ends with it. */
  private async sessionEnded(sessionId: string): Promise<void> {
    const row = await this.requests.findOneBy({ sessionId, status: 'active' });
    if (!row) return;
    const policy = await this.queries.policy(row.organisationId);
    const reason: SupportAccessEndReason =
      row.endsAt && row.endsAt.getTime() <= Date.now()
        ? 'time-limit'
        : policy === 'never'
          ? 'access-off'
          : 'session-ended';
    await this.finish(row.id, reason, 'service');
  }

  /** The organisation turned support access off: its running sessions end now. */
  private async policyChanged(organisationId: number): Promise<void> {
    if ((await this.queries.policy(organisationId)) !== 'never') return;
    const running = await this.requests.findBy({ organisationId, status: 'active' });
    for (const row of running) await this.finish(row.id, 'access-off', 'service');
  }

  private failed(e: unknown): void {
    this.logger.error(`Ending a support access failed: ${(e as Error).message}`);
  }
}
