import { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';

type Window = { hits: number; endsAt: number; blockedUntil: number };

/**
 * The record @nestjs/throttler's guard reads, from a window's hits and what is left of it (ms), and, when the caller
 * is refused, how long until it may call again (ms). Times are whole seconds, rounded up, for Retry-After.
 */
export function throttlerRecord(hits: number, windowLeftMs: number, blockLeftMs?: number): ThrottlerStorageRecord {
  const seconds = (ms: number) => Math.ceil(Math.max(ms, 0) / 1000);
  return {
    totalHits: hits,
    timeToExpire: seconds(windowLeftMs),
    isBlocked: blockLeftMs !== undefined,
    timeToBlockExpire: blockLeftMs === undefined ? 0 : seconds(blockLeftMs),
  };
}

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
    if (w && w.blockedUntil > now) return throttlerRecord(w.hits, w.endsAt - now, w.blockedUntil - now);
    if (!w || w.endsAt <= now) {
      w = { hits: 0, endsAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, w);
      if (this.windows.size > MemoryThrottlerStorage.PRUNE_ABOVE) this.prune(now);
    }
    w.hits++;
    const left = w.endsAt - now;
    if (w.hits <= limit) return throttlerRecord(w.hits, left);
    if (blockDuration > 0) w.blockedUntil = now + blockDuration;
    return throttlerRecord(w.hits, left, blockDuration > 0 ? blockDuration : left);
  }

  private prune(now: number): void {
    for (const [id, w] of this.windows) if (w.endsAt <= now && w.blockedUntil <= now) this.windows.delete(id);
  }
}
