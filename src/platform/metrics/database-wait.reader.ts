import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { observeGateWaits } from '../database/sqlite/serialiser';
import { MetricsService } from './metrics.service';

/** `db_queue_wait_seconds`: how long each SQLite query or transaction waited for the gate (sqlite/serialiser.ts). */
@Injectable()
export class DatabaseWaitReader implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly db: DataSource,
  ) {}

  onModuleInit(): void {
    observeGateWaits(this.db, (seconds) => this.metrics.observeDbWait(seconds));
  }
}
