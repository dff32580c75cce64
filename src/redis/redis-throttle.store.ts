import Redis from 'ioredis';
import { ThrottleStore } from '../auth/throttle-store';

/** INCR and extend the window in one step; answers the new count. */
const INCREMENT = `
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return n
`;

/**
 * The sign-in throttle's counters in Redis, shared by every instance: failures spread over several
 * instances count together. Times are Redis's own (PEXPIRE), so instances need no synchronised clocks;
 * the `now` of the interface is used only to turn the remaining time into an absolute expiry.
 */
export class RedisThrottleStore implements ThrottleStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'login-throttle:',
  ) {
    this.redis.defineCommand('loginThrottleIncrement', { numberOfKeys: 1, lua: INCREMENT });
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    const run = (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<number>>).loginThrottleIncrement;
    return Number(await run.call(this.redis, this.prefix + key, ttlMs));
  }

  async get(key: string, now: number): Promise<{ count: number; expiresAt: number }> {
    const [[, value], [, left]] = (await this.redis.multi().get(this.prefix + key).pttl(this.prefix + key).exec()) as [[null, string | null], [null, number]];
    if (value === null || left <= 0) return { count: 0, expiresAt: 0 };
    return { count: Number(value), expiresAt: now + left };
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async setOnce(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.prefix + key, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }
}
