import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';

/**
 * The Redis connection shared by everything that must agree across instances (socket.io adapter, rate
 * limits, login throttling, session-cache invalidation) — or none when REDIS_URL is unset, and each
 * of those keeps its state in the process, which is right for a single instance.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis | null;
  private readonly extra: Redis[] = [];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.client = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3, enableOfflineQueue: true }) : null;
  }

  /** A second connection of its own (subscribers cannot share one); closed with the app. */
  duplicate(): Redis {
    if (!this.client) throw new Error('REDIS_URL is not configured');
    const copy = this.client.duplicate();
    this.extra.push(copy);
    return copy;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.client, ...this.extra].filter((c): c is Redis => c !== null).map((c) => c.quit().catch(() => c.disconnect())));
  }
}

@Global()
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
