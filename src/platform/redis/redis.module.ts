import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import Redis from 'ioredis';
import { EngineState } from '../web/engine-state';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';

/** The longest wait between two attempts to reach Redis again. */
const RECONNECT_MAX_MS = 1000;

/**
 * The Redis connection shared by everything that must agree across instances (socket.io adapter, rate
 * limits, login throttling, session-cache invalidation) — or none when REDIS_URL is unset, and each
 * of those keeps its state in the process, which is right for a single instance.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis | null;
  private readonly extra: Redis[] = [];
  private readonly logger = new Logger('Redis');
  private lastError = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    /** Told when the main connection loses Redis and gets it back (it logs the outage once); absent in unit tests. */
    @Optional() readonly engines?: EngineState,
  ) {
    // Commands fail at once while Redis is unreachable (no offline queue): callers fall back or report, and
    // readiness (GET /api/health/ready) says so, rather than requests hanging.
    // Reconnection attempts at most a second apart (ioredis's default waits up to 2 s), so that every connection,
    // the subscribers' too (duplicate keeps the options), is back within about a second of Redis's return.
    this.client = config.redisUrl
      ? this.watch(
          new Redis(config.redisUrl, {
            maxRetriesPerRequest: 1,
            enableOfflineQueue: false,
            retryStrategy: (times) => Math.min(times * 50, RECONNECT_MAX_MS),
          }),
        )
      : null;
    const client = this.client;
    if (client && engines) {
      engines.watch('redis', () => client.ping());
      client.on('ready', () => engines.up('redis'));
    }
  }

  /**
   * A second connection of its own (subscribers cannot share one); closed with the app. Its commands wait while
   * Redis is unreachable; closed then, in the middle of a reconnection, it rejects them all ("Connection is
   * closed."), and callers that never look (socket.io's adapter subscribes without a catch) would leave unhandled
   * rejections at shutdown. So every command's failure counts as handled here; a caller that awaits one still
   * sees it fail.
   */
  duplicate(): Redis {
    if (!this.client) throw new Error('REDIS_URL is not configured');
    const copy = this.watch(this.client.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null }));
    const send = copy.sendCommand.bind(copy);
    copy.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
      const sent = send(...args) as Promise<unknown>;
      sent.catch(() => undefined);
      return sent;
    }) as Redis['sendCommand'];
    this.extra.push(copy);
    return copy;
  }

  /**
   * Handles ioredis's 'error' events (unhandled, they would crash the process). The main connection's are reported to
   * the EngineState, which logs once per outage; the others' (subscribers) lose Redis at the same time and say nothing
   * more. Without an EngineState, one line a minute at most.
   */
  private watch(client: Redis): Redis {
    client.on('error', (e: Error) => {
      if (this.engines) {
        // Once per outage: its reconnection attempts (one a second) are no calls that went without Redis.
        if (client === this.client && this.engines.isUp('redis')) this.engines.down('redis', e);
        return;
      }
      if (Date.now() - this.lastError < 60_000) return;
      this.lastError = Date.now();
      this.logger.error(`Redis unreachable: ${e.message}`);
    });
    return client;
  }

  async onApplicationShutdown(): Promise<void> {
    // QUIT only on a live connection: on one still trying to connect it would wait in the queue for ever.
    const clients = [this.client, ...this.extra].filter((c): c is Redis => c !== null);
    await Promise.all(
      clients.map((c) =>
        c.status === 'ready'
          ? c.quit().then(
              () => undefined,
              () => c.disconnect(),
            )
          : c.disconnect(),
      ),
    );
  }
}

@Global()
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
