import { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis from 'ioredis';
import { EngineState } from '../web/engine-state';
import { MemoryThrottlerStorage, throttlerRecord } from '../web/throttling/memory-throttler.storage';

/**
 * One fixed window per key, and a block once the limit is passed, counted atomically in Redis (one Lua
 * call per request) so that every instance sees the same count. Returns [hits, window ms left, blocked,
 * block ms left].
 */
const INCREMENT = `
local hitsKey, blockKey = KEYS[1], KEYS[2]
local ttl, limit, block = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local blockLeft = redis.call('PTTL', blockKey)
if blockLeft > 0 then
  return { tonumber(redis.call('GET', hitsKey) or '0'), math.max(redis.call('PTTL', hitsKey), 0), 1, blockLeft }
end
local hits = redis.call('INCR', hitsKey)
if hits == 1 then redis.call('PEXPIRE', hitsKey, ttl) end
local left = redis.call('PTTL', hitsKey)
if hits > limit then
  if block > 0 then
    redis.call('SET', blockKey, '1', 'PX', block)
    return { hits, left, 1, block }
  end
  return { hits, left, 1, left }
end
return { hits, left, 0, 0 }
`;

/**
 * @nestjs/throttler's storage in Redis, for several instances behind one load balancer. While Redis is
 * unreachable each instance counts in its own memory (the limits hold per instance, never fail closed), and tells
 * the EngineState, which logs the outage once.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly fallback = new MemoryThrottlerStorage();

  constructor(
    private readonly redis: Redis,
    private readonly engines?: EngineState,
    private readonly prefix = 'throttle:',
  ) {
    this.redis.defineCommand('throttleIncrement', { numberOfKeys: 2, lua: INCREMENT });
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const base = `${this.prefix}${throttlerName}:${key}`;
    const run = (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<number[]>>).throttleIncrement;
    let counted: number[];
    try {
      counted = await run.call(this.redis, `${base}:hits`, `${base}:block`, ttl, limit, blockDuration);
    } catch (e) {
      this.engines?.down('redis', e);
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
    const [hits, left, blocked, blockLeft] = counted;
    return throttlerRecord(hits, left, blocked === 1 ? blockLeft : undefined);
  }
}
