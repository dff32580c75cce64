import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { runPeriodically } from '../common/periodic';
import { ADVISORY_LOCKS } from '../database/migrate';
import { AuditService } from './audit.service';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first purge waits a little after start, so it does not compete with start-up and the first requests. */
const FIRST_RUN_DELAY_MS = 60_000;

/**
 * Deletes audit events older than AUDIT_RETENTION_DAYS once a day (0 keeps them forever). A plain timer,
 * unref'd so it never keeps the process alive. With several instances on PostgreSQL, one at a time: the
 * run takes a transaction-free advisory lock, and an instance that does not get it skips the day's run.
 * On SQLite there is one process.
 */
@Injectable()
export class AuditRetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditRetention');
  private stopPurge?: () => void;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditService,
    private readonly db: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.auditRetentionDays === 0) return;
    this.stopPurge = runPeriodically(() => this.purge(), {
      firstDelayMs: FIRST_RUN_DELAY_MS,
      everyMs: DAY_MS,
      logger: this.logger,
      what: 'Audit purge',
    });
  }

  onApplicationShutdown(): void {
    this.stopPurge?.();
    this.stopPurge = undefined;
  }

  /** One purge; returns how many events went, or null when another instance holds the lock. */
  async purge(now = new Date()): Promise<number | null> {
    if (this.config.auditRetentionDays === 0) return 0;
    const cutoff = new Date(now.getTime() - this.config.auditRetentionDays * DAY_MS);
    if (this.db.options.type !== 'postgres') return this.report(await this.audit.purgeOlderThan(cutoff));
    const runner = this.db.createQueryRunner();
    try {
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [
        ADVISORY_LOCKS.AUDIT_PURGE,
      ]);
      if (!locked) return null;
      try {
        return this.report(await this.audit.purgeOlderThan(cutoff));
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.AUDIT_PURGE]);
      }
    } finally {
      await runner.release();
    }
  }

  private report(n: number): number {
    if (n > 0) this.logger.log(`Purged ${n} audit event(s) older than ${this.config.auditRetentionDays} days`);
    return n;
  }
}
