import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { runPeriodically } from '../jobs/periodic';
import { createBackup } from './backup';

const HOUR_MS = 60 * 60 * 1000;
const NAME = /^tax-portal-\d{8}T\d{6}Z\.tar\.gz$/;

/**
 * Scheduled backups (BACKUP_DIR, every BACKUP_INTERVAL_HOURS, the newest BACKUP_KEEP kept): the same archive as
 * `backup` on the command line. SQLite deployments only, so there is one instance to run them.
 */
@Injectable()
export class BackupService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Backup');
  private stop?: () => void;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    const { backupDir, backupIntervalHours } = this.config;
    if (!backupDir) return;
    const everyMs = backupIntervalHours * HOUR_MS;
    this.stop = runPeriodically(() => this.run(), {
      firstDelayMs: Math.min(everyMs, 60_000),
      everyMs,
      logger: this.logger,
      what: 'Scheduled backup',
    });
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  async run(now = new Date()): Promise<string> {
    const dir = this.config.backupDir!;
    const stamp = now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const file = join(dir, `tax-portal-${stamp}.tar.gz`);
    const manifest = await createBackup({
      dataDir: this.config.dataDir,
      file,
      now,
      keysFromEnvironment: this.config.keysFromEnvironment,
    });
    const old = readdirSync(dir)
      .filter((f) => NAME.test(f))
      .sort()
      .reverse()
      .slice(this.config.backupKeep);
    for (const f of old) rmSync(join(dir, f), { force: true });
    this.logger.log(`Backup written to ${file} (schema ${manifest.schemaVersion}); ${old.length} older removed`);
    return file;
  }
}
