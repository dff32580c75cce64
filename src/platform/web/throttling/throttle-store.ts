/**
 * Where the sign-in throttle keeps its counters: in the database (DatabaseThrottleStore), shared by every instance
 * and kept across restarts and Redis outages (docs/decisions/sign-in-locks.md); MemoryThrottleStore is the same
 * rules in one process, for unit tests of the throttle's arithmetic.
 */
export interface ThrottleStore {
  /**
   * Adds one to each key's count; each count lives `ttlMs` from now (every hit extends it), and starts again from
   * one once expired. Answers the new counts, in the order of `keys`.
   */
  increment(keys: readonly string[], ttlMs: number, now: number): Promise<number[]>;
  /** Each key's count and when it expires (0 and 0 when absent or expired), in the order of `keys`. */
  get(keys: readonly string[], now: number): Promise<ThrottleCount[]>;
  /** Forgets the keys' counts. */
  clear(keys: readonly string[], now: number): Promise<void>;
  /** Sets the key for `ttlMs` unless it is set already: true for the first caller of a period, false after. */
  setOnce(key: string, ttlMs: number, now: number): Promise<boolean>;
}

export interface ThrottleCount {
  count: number;
  expiresAt: number;
}

export const THROTTLE_STORE = Symbol('THROTTLE_STORE');

/** The counters of one process; expired entries are dropped as the map grows. */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly entries = new Map<string, ThrottleCount>();
  static readonly PRUNE_ABOVE = 100_000;

  private live(key: string, now: number) {
    const e = this.entries.get(key);
    if (e && e.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  async increment(keys: readonly string[], ttlMs: number, now: number): Promise<number[]> {
    const counts = keys.map((key) => {
      const e = this.live(key, now) ?? { count: 0, expiresAt: 0 };
      e.count++;
      e.expiresAt = now + ttlMs;
      this.entries.set(key, e);
      return e.count;
    });
    if (this.entries.size > MemoryThrottleStore.PRUNE_ABOVE) this.prune(now);
    return counts;
  }

  async get(keys: readonly string[], now: number): Promise<ThrottleCount[]> {
    return keys.map((key) => {
      const e = this.live(key, now);
      return e ? { ...e } : { count: 0, expiresAt: 0 };
    });
  }

  async clear(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
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
