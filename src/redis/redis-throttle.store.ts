import Redis from 'ioredis';
import { EngineState } from '../common/engine-state';
import { MemoryThrottleStore, ThrottleStore } from '../common/throttling/throttle-store';

/** INCR and extend the window in one step; answers the new count. */
const INCREMENT = `
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return n
`;

/**
 * The sign-in throttle's counters in Redis, shared by every instance: failures spread over several
 * instances count together. Times are Redis's own (PEXPIRE), so instances need no synchronised clocks;
 * the `now` of the interface is used only to turn the remaining time into an absolute expiry. While Redis is
 * unreachable each instance counts in memory: the throttle keeps holding per instance; the EngineState hears of
 * it and logs the outage once.
 */
export class RedisThrottleStore implements ThrottleStore {
  private readonly fallback = new MemoryThrottleStore();

  private async orMemory<T>(work: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      this.engines?.down('redis', e);
      return inMemory();
    }
  }

  constructor(
    private readonly redis: Redis,
    private readonly engines?: EngineState,
    private readonly prefix = 'login-throttle:',
  ) {
    this.redis.defineCommand('loginThrottleIncrement', { numberOfKeys: 1, lua: INCREMENT });
  }

  increment(key: string, ttlMs: number, now: number): Promise<number> {
    const run = (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<number>>).loginThrottleIncrement;
    return this.orMemory(
      async () => Number(await run.call(this.redis, this.prefix + key, ttlMs)),
      () => this.fallback.increment(key, ttlMs, now),
    );
  }

  get(key: string, now: number): Promise<{ count: number; expiresAt: number }> {
    return this.orMemory(
      async () => {
        const [[, value], [, left]] = (await this.redis
          .multi()
          .get(this.prefix + key)
          .pttl(this.prefix + key)
          .exec()) as [[null, string | null], [null, number]];
        if (value === null || left <= 0) return { count: 0, expiresAt: 0 };
        return { count: Number(value), expiresAt: now + left };
      },
      () => this.fallback.get(key, now),
    );
  }

  delete(key: string): Promise<void> {
    return this.orMemory(
      async () => void (await this.redis.del(this.prefix + key)),
      () => this.fallback.delete(key),
    );
  }

  setOnce(key: string, ttlMs: number, now: number): Promise<boolean> {
    return this.orMemory(
      async () => (await this.redis.set(this.prefix + key, '1', 'PX', ttlMs, 'NX')) === 'OK',
      () => this.fallback.setOnce(key, ttlMs, now),
    );
  }
}
