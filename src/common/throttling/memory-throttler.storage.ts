import { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';

type Window = { hits: number; endsAt: number; blockedUntil: number };

/**
 * @nestjs/throttler's storage in one process, counted as RedisThrottlerStorage counts across instances: one fixed
 * window per key from its first hit, and a block once the limit is passed. Constant work a request: the library's
 * own storage keeps every hit's expiry and filters the whole list on each request (at the anonymous limit of
 * 1,500 a minute, 1,500 entries copied per request). Windows that have ended are dropped as the map grows.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  static readonly PRUNE_ABOVE = 100_000;
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** How many windows are kept. */
  get size(): number {
    return this.windows.size;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    const id = `${throttlerName}:${key}`;
    let w = this.windows.get(id);
    const seconds = (ms: number) => Math.ceil(Math.max(ms, 0) / 1000);
    if (w && w.blockedUntil > now)
      return {
        totalHits: w.hits,
        timeToExpire: seconds(w.endsAt - now),
        isBlocked: true,
        timeToBlockExpire: seconds(w.blockedUntil - now),
      };
    if (!w || w.endsAt <= now) {
      w = { hits: 0, endsAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, w);
      if (this.windows.size > MemoryThrottlerStorage.PRUNE_ABOVE) this.prune(now);
    }
    w.hits++;
    const left = w.endsAt - now;
    if (w.hits <= limit)
      return { totalHits: w.hits, timeToExpire: seconds(left), isBlocked: false, timeToBlockExpire: 0 };
    if (blockDuration > 0) w.blockedUntil = now + blockDuration;
    return {
      totalHits: w.hits,
      timeToExpire: seconds(left),
      isBlocked: true,
      timeToBlockExpire: seconds(blockDuration > 0 ? blockDuration : left),
    };
  }

  private prune(now: number): void {
    for (const [id, w] of this.windows) if (w.endsAt <= now && w.blockedUntil <= now) this.windows.delete(id);
  }
}
