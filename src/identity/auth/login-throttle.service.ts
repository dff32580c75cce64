import { HttpStatus, Inject, Injectable, Optional } from '@nestjs/common';
import { AppException } from '../../platform/web/app.exception';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { ERROR_CODES } from '../../shared/messages';
import { THROTTLE_STORE, ThrottleStore } from '../../platform/web/throttling/throttle-store';

/** Whether an account has signed in from an address since a time: such an address passes the account-wide bound. */
export interface KnownAddresses {
  has(account: string, address: string, since: Date): Promise<boolean>;
}
export const KNOWN_ADDRESSES = Symbol('KNOWN_ADDRESSES');

/** Time for the throttle: injected so that tests assert the delays without waiting for them. */
export interface ThrottleClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}
export const THROTTLE_CLOCK = Symbol('THROTTLE_CLOCK');
export const systemClock: ThrottleClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/**
 * Brute-force protection that cannot be turned against the account's owner (docs/decisions/sign-in.md, 'Throttling'):
 * - per account and address: 5 failures lock that pair for 15 minutes (the right password included), and
 *   only that pair: the owner elsewhere signs in as usual;
 * - per address: slowed from 15 failures, refused at 30, whatever the accounts (one office behind a NAT is
 *   not refused for one person's typos);
 * - per account, across addresses: from 10 consecutive failures each attempt waits 0.5 s more (at most
 *   5 s), and at 100 only addresses the account has signed in from before are let through; the owner is
 *   e-mailed once per 15 minutes while this goes on.
 * Counts expire 15 minutes after the last failure; a successful sign-in clears the account's count. The counts live in
 * the database, so a lock holds on every instance, across restarts and whatever Redis does
 * (docs/decisions/sign-in-locks.md); a sign-in with no failures behind it reads them and writes nothing.
 */
@Injectable()
export class LoginThrottleService {
  static readonly WINDOW_MS = 15 * 60 * 1000;
  static readonly PAIR_LIMIT = 5;
  static readonly ADDRESS_SLOW_AFTER = 15;
  static readonly ADDRESS_LIMIT = 30;
  static readonly ACCOUNT_SLOW_AFTER = 10;
  static readonly ACCOUNT_LIMIT = 100;
  static readonly DELAY_STEP_MS = 500;
  static readonly MAX_DELAY_MS = 5_000;
  /** How long an address where the account signed in stays known to the account-wide bound. */
  static readonly KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

  private readonly clock: ThrottleClock;

  constructor(
    @Inject(THROTTLE_STORE) private readonly store: ThrottleStore,
    @Inject(KNOWN_ADDRESSES) private readonly knownAddresses: KnownAddresses,
    @Optional() @Inject(THROTTLE_CLOCK) clock?: ThrottleClock,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    this.clock = clock ?? systemClock;
  }

  private keys(account: string, address: string) {
    const a = account.toLowerCase();
    return {
      pair: `pair:${a}|${address}`,
      address: `address:${address}`,
      account: `account:${a}`,
      alerted: `alerted:${a}`,
    };
  }

  /**
   * Throws 429 while this account and address may not try; otherwise waits as long as recent failures ask. Answers
   * whether failures are counted against the account (alone or from this address): if not, a success right after
   * has nothing to clear.
   */
  async check(account: string, address: string): Promise<boolean> {
    const k = this.keys(account, address);
    const now = this.clock.now();
    const [pair, byAddress, byAccount] = await this.store.get([k.pair, k.address, k.account], now);
    const S = LoginThrottleService;
    if (pair.count >= S.PAIR_LIMIT) throw tooMany(pair.expiresAt - now);
    if (byAddress.count >= S.ADDRESS_LIMIT) throw tooMany(byAddress.expiresAt - now);
    // Only an account under attack asks where its owner signs in from.
    const trusted =
      byAccount.count >= S.ACCOUNT_SLOW_AFTER &&
      (await this.knownAddresses.has(account, address, new Date(now - S.KNOWN_ADDRESS_MS)));
    if (!trusted && byAccount.count >= S.ACCOUNT_LIMIT) throw tooMany(byAccount.expiresAt - now);
    const delay = Math.min(
      S.MAX_DELAY_MS,
      Math.max(
        steps(byAddress.count, S.ADDRESS_SLOW_AFTER),
        trusted ? 0 : steps(byAccount.count, S.ACCOUNT_SLOW_AFTER),
      ) * S.DELAY_STEP_MS,
    );
    if (delay > 0) await this.clock.sleep(delay);
    return pair.count > 0 || byAccount.count > 0;
  }

  /** Counts a failure; `alertOwner` is true once per window when the account is under attack. */
  async recordFailure(account: string, address: string): Promise<{ failures: number; alertOwner: boolean }> {
    const k = this.keys(account, address);
    const now = this.clock.now();
    const W = LoginThrottleService.WINDOW_MS;
    const S = LoginThrottleService;
    const [pairFailures, addressFailures, failures] = await this.store.increment(
      [k.pair, k.address, k.account],
      W,
      now,
    );
    if (pairFailures === S.PAIR_LIMIT) this.metrics?.lockout('pair');
    if (addressFailures === S.ADDRESS_LIMIT) this.metrics?.lockout('address');
    if (failures === S.ACCOUNT_LIMIT) this.metrics?.lockout('account');
    const alertOwner =
      failures >= LoginThrottleService.ACCOUNT_SLOW_AFTER && (await this.store.setOnce(k.alerted, W, now));
    return { failures, alertOwner };
  }

  /** The right password: the account's failures, and (with an address) that pair's, are forgiven. */
  async recordSuccess(account: string, address?: string): Promise<void> {
    const k = this.keys(account, address ?? '');
    await this.store.clear(address ? [k.account, k.pair] : [k.account], this.clock.now());
  }
}

/** Delay steps once `count` failures reach `after`: 1 at `after`, 2 at `after + 1`, … */
function steps(count: number, after: number): number {
  return count >= after ? count - after + 1 : 0;
}

function tooMany(msLeft: number): AppException {
  const minutes = Math.max(1, Math.ceil(msLeft / 60000));
  return new AppException(
    HttpStatus.TOO_MANY_REQUESTS,
    ERROR_CODES.TOO_MANY_ATTEMPTS,
    `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before trying again.`,
    { retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) },
  );
}
