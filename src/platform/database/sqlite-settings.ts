import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Settings of the one SQLite connection (docs/decisions/perf-refresh-and-logins.md):
 * - `synchronous = NORMAL`, SQLite's own advice for WAL: a commit no longer waits for an fsync, only
 *   checkpoints do. The database stays consistent after a crash of the process or the machine; a power
 *   loss may drop the last few commits. With FULL every write waits for the disk, which capped refreshes
 *   (the figure is in the decision record).
 * - a 64 MiB page cache and memory-mapped reads, so that the indexes of a 100,000-user organisation stay
 *   in memory instead of being read back through system calls on every count and page.
 */
@Injectable()
export class SqliteSettings implements OnModuleInit {
  constructor(private readonly db: DataSource) {}

  async onModuleInit(): Promise<void> {
    if (this.db.options.type !== 'sqlite') return;
    await this.db.query('PRAGMA synchronous = NORMAL');
    await this.db.query('PRAGMA cache_size = -65536');
    await this.db.query('PRAGMA mmap_size = 268435456');
  }
}
