import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { ActiveSessionsReader } from './active-sessions.reader';
import { DatabaseWaitReader } from './database-wait.reader';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** Prometheus metrics: {@link MetricsService} is global, so any feature can count without importing this module. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsAccessGuard, ActiveSessionsReader, DatabaseWaitReader],
  exports: [MetricsService],
})
export class MetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*');
  }
}
