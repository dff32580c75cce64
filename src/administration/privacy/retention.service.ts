import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { runPeriodically } from '../../platform/jobs/periodic';
import { ADVISORY_LOCKS } from '../../platform/database/migrate';
import { storedDate, whileLocked } from '../../platform/database/raw-sql';
import { PRIVACY_LIMITS } from '../../shared/administration/privacy';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first run waits a little after start, so it does not compete with start-up and the first requests. */
const FIRST_RUN_DELAY_MS = 60_000;

/** What one retention run deleted. */
export interface RetentionRun {
  auditEvents: number;
  signIns: number;
}

/**
 * Retention (docs/privacy.md): once a day, deletes each organisation's audit events older than its policy's
 * `auditRetentionDays` (the deployment's AUDIT_RETENTION_DAYS where it chose none, and for the deployment's own
 * events), and sign-in history older than 90 days. In statements of a few hundred rows, each followed by a pause at
 * least as long as it took, so that writers (every audited change, every sign-in) wait at most one short statement
 * and have the database at least half the time: on SQLite each statement holds the one writer's gate, on
 * PostgreSQL its row locks.
 *
 * One instance runs it: on PostgreSQL the run takes a session advisory lock and an instance that does not get it
 * skips the day's run; SQLite has one process. A plain timer, unref'd so it never keeps the process alive.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private stop?: () => void;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = runPeriodically(() => this.purge(), {
      firstDelayMs: FIRST_RUN_DELAY_MS,
      everyMs: DAY_MS,
      logger: this.logger,
      what: 'Retention',
    });
  }

  onApplicationShutdown(): void {
    this.stop?.();
    this.stop = undefined;
  }

  /**
   * One run as of `now`; null when another instance holds the lock. `pauseMs`: the least pause between two
   * statements (0: none, for tests).
   */
  async purge(now = new Date(), pauseMs: number = PRIVACY_LIMITS.RETENTION_PAUSE_MS): Promise<RetentionRun | null> {
    return whileLocked(this.db, ADVISORY_LOCKS.AUDIT_PURGE, async () => this.report(await this.run(now, pauseMs)));
  }

  private async run(now: Date, pauseMs: number): Promise<RetentionRun> {
    const deployment = this.config.auditRetentionDays;
    const organisations: Array<{ id: number; days: number | null }> = await this.db.query(
      'SELECT "id", "auditRetentionDays" AS "days" FROM "organisations"',
    );
    let auditEvents = 0;
    // Organisation by organisation, so that each statement seeks the (organisationId, occurredAt) index.
    for (const org of organisations) {
      const cutoff = new Date(now.getTime() - (org.days ?? deployment) * DAY_MS);
      auditEvents += await this.deleteInBatches(
        'audit_events',
        '"organisationId" = :org AND "occurredAt" < :cutoff',
        { org: org.id, cutoff },
        pauseMs,
      );
    }
    auditEvents += await this.deleteInBatches(
      'audit_events',
      '"organisationId" IS NULL AND "occurredAt" < :cutoff',
      { cutoff: new Date(now.getTime() - deployment * DAY_MS) },
      pauseMs,
    );
    const signIns = await this.deleteInBatches(
      'sign_in_history',
      '"at" < :cutoff',
      { cutoff: new Date(now.getTime() - PRIVACY_LIMITS.SIGN_IN_HISTORY_DAYS * DAY_MS) },
      pauseMs,
    );
    return { auditEvents, signIns };
  }

  /** Deletes the rows of `table` matching `where`, a batch per statement (no transaction around them). */
  private async deleteInBatches(
    table: string,
    where: string,
    params: Record<string, unknown>,
    pauseMs: number,
  ): Promise<number> {
    const values = Object.fromEntries(
      Object.entries(params).map(([k, v]) => [k, v instanceof Date ? storedDate(this.db, v) : v]),
    );
    const [sql, bound] = this.db.driver.escapeQueryWithParameters(
      `DELETE FROM "${table}" WHERE "id" IN (SELECT "id" FROM "${table}" WHERE ${where} LIMIT ${PRIVACY_LIMITS.RETENTION_BATCH})`,
      values,
      {},
    );
    let total = 0;
    for (;;) {
      const runner = this.db.createQueryRunner();
      const started = Date.now();
      let deleted: number;
      try {
        deleted = (await runner.query(sql, bound, true)).affected ?? 0;
      } finally {
        await runner.release();
      }
      total += deleted;
      if (deleted < PRIVACY_LIMITS.RETENTION_BATCH) return total;
      // At least as long as the statement took: the pass holds the writers' gate (or rows) at most half the time.
      if (pauseMs > 0) await sleep(Math.max(pauseMs, Date.now() - started));
    }
  }

  private report(run: RetentionRun): RetentionRun {
    if (run.auditEvents > 0 || run.signIns > 0)
      this.logger.log(`Deleted ${run.auditEvents} audit event(s) and ${run.signIns} sign-in(s) past their retention`);
    return run;
  }
}
