import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * SQLite in WAL mode with `synchronous = NORMAL` (SQLite's own advice for WAL): a commit no longer waits
 * for an fsync, only checkpoints do. The database stays consistent after a crash of the process or the
 * machine; a power loss may drop the last few commits (docs/decisions.md, Performance). With FULL every
 * write waits for the disk (about 230 commits a second on this machine kind), which capped refreshes.
 */
@Injectable()
export class SqliteDurability implements OnModuleInit {
  constructor(private readonly db: DataSource) {}

  async onModuleInit(): Promise<void> {
    if (this.db.options.type === 'sqlite') await this.db.query('PRAGMA synchronous = NORMAL');
  }
}
