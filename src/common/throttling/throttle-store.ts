/**
 * Where the sign-in throttle keeps its counters: in memory for one instance (MemoryThrottleStore), in Redis
 * when several instances run behind a load balancer (RedisThrottleStore, chosen in auth.module.ts by REDIS_URL).
 */
export interface ThrottleStore {
  /** Adds one to the key's count; the count lives `ttlMs` from now (every hit extends it). Answers the new count. */
  increment(key: string, ttlMs: number, now: number): Promise<number>;
  /** The key's count and when it expires (0 and 0 when absent or expired). */
  get(key: string, now: number): Promise<{ count: number; expiresAt: number }>;
  delete(key: string): Promise<void>;
  /** Sets the key for `ttlMs` unless it is set already: true for the first caller of a period, false after. */
  setOnce(key: string, ttlMs: number, now: number): Promise<boolean>;
}

export const THROTTLE_STORE = Symbol('THROTTLE_STORE');

/** The counters of one process; expired entries are dropped as the map grows. */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly entries = new Map<string, { count: number; expiresAt: number }>();
  static readonly PRUNE_ABOVE = 100_000;

  private live(key: string, now: number) {
    const e = this.entries.get(key);
    if (e && e.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  async increment(key: string, ttlMs: number, now: number): Promise<number> {
    const e = this.live(key, now) ?? { count: 0, expiresAt: 0 };
    e.count++;
    e.expiresAt = now + ttlMs;
    this.entries.set(key, e);
    if (this.entries.size > MemoryThrottleStore.PRUNE_ABOVE) this.prune(now);
    return e.count;
  }

  async get(key: string, now: number): Promise<{ count: number; expiresAt: number }> {
    const e = this.live(key, now);
    return e ? { ...e } : { count: 0, expiresAt: 0 };
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async setOnce(key: string, ttlMs: number, now: number): Promise<boolean> {
    if (this.live(key, now)) return false;
    this.entries.set(key, { count: 1, expiresAt: now + ttlMs });
    return true;
  }

  private prune(now: number): void {
    for (const [key, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(key);
  }
}
