import { HttpStatus, Injectable, Optional } from '@nestjs/common';
import { AppException } from '../common/app.exception';
import { MetricsService } from '../metrics/metrics.service';
import { ERROR_CODES } from '../shared/messages';

interface Counter {
  failures: number[];
  lockedUntil: number;
}

/**
 * Slows, then refuses, repeated failed sign-ins for one account and from one address. While a key is
 * locked every attempt is refused with 429, the right password included. Kept in memory: one process
 * (see docs/decisions.md for several instances).
 */
@Injectable()
export class LoginThrottleService {
  static readonly WINDOW_MS = 15 * 60 * 1000;
  static readonly LOCK_MS = 15 * 60 * 1000;
  static readonly ACCOUNT_LIMIT = 5;
  static readonly ADDRESS_LIMIT = 30;
  /** Failures of an account, and from an address, before each further attempt is delayed. */
  static readonly ACCOUNT_SLOW_AFTER = 3;
  static readonly ADDRESS_SLOW_AFTER = 15;
  static readonly DELAY_STEP_MS = 400;

  private readonly counters = new Map<string, Counter>();
  constructor(@Optional() private readonly metrics?: MetricsService) {}

  private keys(account: string, address: string): Array<[key: string, limit: number, slowAfter: number]> {
    return [
      [`account:${account.toLowerCase()}`, LoginThrottleService.ACCOUNT_LIMIT, LoginThrottleService.ACCOUNT_SLOW_AFTER],
      [`address:${address}`, LoginThrottleService.ADDRESS_LIMIT, LoginThrottleService.ADDRESS_SLOW_AFTER],
    ];
  }

  private recent(key: string, now: number): Counter {
    const c = this.counters.get(key) ?? { failures: [], lockedUntil: 0 };
    c.failures = c.failures.filter((t) => now - t < LoginThrottleService.WINDOW_MS);
    return c;
  }

  /** Throws 429 while the account or the address is locked; otherwise waits as long as recent failures ask. */
  async check(account: string, address: string, now = Date.now()): Promise<void> {
    let delay = 0;
    for (const [key, , slowAfter] of this.keys(account, address)) {
      const c = this.recent(key, now);
      if (c.lockedUntil > now) {
        const minutes = Math.ceil((c.lockedUntil - now) / 60000);
        throw new AppException(
          HttpStatus.TOO_MANY_REQUESTS,
          ERROR_CODES.TOO_MANY_ATTEMPTS,
          `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before trying again.`,
          { retryAfterSeconds: Math.ceil((c.lockedUntil - now) / 1000) },
        );
      }
      delay = Math.max(delay, (c.failures.length - slowAfter + 1) * LoginThrottleService.DELAY_STEP_MS);
    }
    if (delay > 0) await new Promise((r) => setTimeout(r, Math.min(delay, 3000)));
  }

  recordFailure(account: string, address: string, now = Date.now()): void {
    for (const [key, limit] of this.keys(account, address)) {
      const c = this.recent(key, now);
      c.failures.push(now);
      if (c.failures.length >= limit) this.metrics?.lockout(key.split(':')[0]);
      if (c.failures.length >= limit) c.lockedUntil = now + LoginThrottleService.LOCK_MS;
      this.counters.set(key, c);
    }
    if (this.counters.size > 50_000) this.prune(now);
  }

  recordSuccess(account: string): void {
    this.counters.delete(`account:${account.toLowerCase()}`);
  }

  private prune(now: number): void {
    for (const [key, c] of this.counters) {
      if (c.lockedUntil <= now && c.failures.every((t) => now - t >= LoginThrottleService.WINDOW_MS)) this.counters.delete(key);
    }
  }
}
