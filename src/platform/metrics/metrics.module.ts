import { Global, Module } from '@nestjs/common';
import { ActiveSessionsReader } from './active-sessions.reader';
import { DatabaseWaitReader } from './database-wait.reader';
import { EngineUpReader } from './engine-up.reader';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * Prometheus metrics: {@link MetricsService} is global, so any feature can count without importing this module;
 * HTTP responses are counted by the request log (httpMetrics, configureApp).
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsAccessGuard, ActiveSessionsReader, DatabaseWaitReader, EngineUpReader],
  exports: [MetricsService],
})
export class MetricsModule {}
