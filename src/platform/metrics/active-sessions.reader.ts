import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MetricsService } from './metrics.service';

/** `sessions_active`, read from the database at scrape time: right across restarts and instances. */
@Injectable()
export class ActiveSessionsReader implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly db: DataSource,
  ) {}

  onModuleInit(): void {
    this.metrics.readOnScrape('sessions_active', async () => {
      const [row] = await this.db.query<Array<{ n: number | string }>>(
        'SELECT COUNT(*) AS n FROM sessions WHERE "endedAt" IS NULL',
      );
      return Number(row?.n ?? 0);
    });
  }
}
