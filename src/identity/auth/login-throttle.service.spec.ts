import { KnownAddresses, LoginThrottleService as S, ThrottleClock } from './login-throttle.service';
import { MemoryThrottleStore } from '../../platform/web/throttling/throttle-store';

/** A clock that moves only when told, and records the delays asked for instead of waiting. */
class FakeClock implements ThrottleClock {
  time = 1_000_000;
  slept: number[] = [];
  now = () => this.time;
  sleep = async (ms: number) => {
    this.slept.push(ms);
  };
}

/** Where each account has signed in, and when: what the sessions table tells the throttle. */
class FakeSignIns implements KnownAddresses {
  readonly at = new Map<string, number>();
  constructor(private readonly clock: FakeClock) {}
  signIn(account: string, address: string) {
    this.at.set(`${account}|${address}`, this.clock.time);
  }
  async has(account: string, address: string, since: Date) {
    return (this.at.get(`${account}|${address}`) ?? -Infinity) > since.getTime();
  }
}

describe('LoginThrottleService', () => {
  const A = '10.0.0.1';
  const B = '10.0.0.2';
  let clock: FakeClock;
  let throttle: S;
  let signIns: FakeSignIns;
  beforeEach(() => {
    clock = new FakeClock();
    signIns = new FakeSignIns(clock);
    throttle = new S(new MemoryThrottleStore(), signIns, clock);
  });
  const fail = async (account: string, address: string, times = 1) => {
    let last = { failures: 0, alertOwner: false };
    for (let i = 0; i < times; i++) last = await throttle.recordFailure(account, address);
    return last;
  };
  /** Failures of one account spread over many addresses (no pair or address bound reached). */
  const distributed = async (account: string, times: number) => {
    const alerts: number[] = [];
    for (let i = 0; i < times; i++)
      if ((await throttle.recordFailure(account, `172.16.${i >> 8}.${i & 255}`)).alertOwner) alerts.push(i + 1);
    return alerts;
  };

  it('locks an account and address pair after five failures, the right password included, and only that pair', async () => {
    await fail('a@x.test', A, 4);
    await expect(throttle.check('a@x.test', A)).resolves.toEqual(expect.any(Boolean));
    await fail('a@x.test', A);
    await expect(throttle.check('a@x.test', A)).rejects.toMatchObject({ status: 429 });
    await expect(throttle.check('A@X.TEST', A)).rejects.toMatchObject({ status: 429 });
    // The owner, elsewhere, is not locked out by it; nor is another account at that address.
    await expect(throttle.check('a@x.test', B)).resolves.toEqual(expect.any(Boolean));
    await expect(throttle.check('other@x.test', A)).resolves.toEqual(expect.any(Boolean));
    // The lock lifts 15 minutes after the last failure.
    clock.time += S.WINDOW_MS - 1;
    await expect(throttle.check('a@x.test', A)).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/wait 1 minute /),
    });
    clock.time += 1;
    await expect(throttle.check('a@x.test', A)).resolves.toEqual(expect.any(Boolean));
  });

  it('forgets failures 15 minutes after the last one', async () => {
    await fail('b@x.test', A, 4);
    clock.time += S.WINDOW_MS;
    await fail('b@x.test', A);
    await expect(throttle.check('b@x.test', A)).resolves.toEqual(expect.any(Boolean));
  });

  it('slows and then refuses an address after many failures across accounts', async () => {
    for (let i = 0; i < S.ADDRESS_SLOW_AFTER; i++) await fail(`u${i}@x.test`, A);
    await throttle.check('fresh@x.test', A);
    expect(clock.slept).toEqual([S.DELAY_STEP_MS]);
    for (let i = S.ADDRESS_SLOW_AFTER; i < S.ADDRESS_LIMIT; i++) await fail(`u${i}@x.test`, A);
    await expect(throttle.check('fresh@x.test', A)).rejects.toMatchObject({ status: 429 });
    await expect(throttle.check('fresh@x.test', B)).resolves.toEqual(expect.any(Boolean));
  });

  it('slows an account attacked from many addresses by a growing delay, at most 5 s, never locking it from a known address', async () => {
    signIns.signIn('c@x.test', B); // the owner's usual address
    await distributed('c@x.test', S.ACCOUNT_SLOW_AFTER - 1);
    await throttle.check('c@x.test', '192.0.2.1');
    expect(clock.slept).toEqual([]);
    await distributed('c@x.test', 1);
    await throttle.check('c@x.test', '192.0.2.1');
    await throttle.recordFailure('c@x.test', '192.0.2.1');
    await throttle.check('c@x.test', '192.0.2.2');
    expect(clock.slept).toEqual([S.DELAY_STEP_MS, 2 * S.DELAY_STEP_MS]);
    await distributed('c@x.test', 50);
    await throttle.check('c@x.test', '192.0.2.3');
    expect(clock.slept.at(-1)).toBe(S.MAX_DELAY_MS);
    // The owner's known address is neither slowed nor refused by the account-wide bound.
    clock.slept = [];
    await throttle.check('c@x.test', B);
    expect(clock.slept).toEqual([]);
  });

  it('after 100 consecutive failures refuses unknown addresses only, until 15 quiet minutes have passed', async () => {
    signIns.signIn('d@x.test', B);
    await distributed('d@x.test', S.ACCOUNT_LIMIT);
    await expect(throttle.check('d@x.test', '192.0.2.9')).rejects.toMatchObject({ status: 429 });
    await expect(throttle.check('d@x.test', B)).resolves.toEqual(expect.any(Boolean));
    clock.time += S.WINDOW_MS;
    await expect(throttle.check('d@x.test', '192.0.2.9')).resolves.toEqual(expect.any(Boolean));
  });

  it('knows an address for 30 days after a sign-in from it, and asks only while the account is under attack', async () => {
    const asked = jest.spyOn(signIns, 'has');
    signIns.signIn('g@x.test', B);
    await throttle.check('g@x.test', B);
    expect(asked).not.toHaveBeenCalled();
    clock.time += S.KNOWN_ADDRESS_MS;
    await distributed('g@x.test', S.ACCOUNT_LIMIT);
    await expect(throttle.check('g@x.test', B)).rejects.toMatchObject({ status: 429 });
    expect(asked).toHaveBeenCalled();
  });

  it('asks to alert the owner once per window while the account is attacked, not per failure', async () => {
    expect(await distributed('e@x.test', 40)).toEqual([S.ACCOUNT_SLOW_AFTER]);
    clock.time += S.WINDOW_MS - 1;
    expect(await distributed('e@x.test', 5)).toEqual([]);
    clock.time += 1;
    expect(await distributed('e@x.test', 1)).toEqual([1]);
  });

  it('tells whether failures are counted against the account, so that a clean success clears nothing', async () => {
    await expect(throttle.check('g@x.test', A)).resolves.toBe(false);
    await fail('g@x.test', B);
    // Counted against the account from another address too.
    await expect(throttle.check('g@x.test', A)).resolves.toBe(true);
    await throttle.recordSuccess('g@x.test', A);
    await expect(throttle.check('g@x.test', A)).resolves.toBe(false);
    // Another account's failures from this address are not this account's.
    await fail('h@x.test', A);
    await expect(throttle.check('g@x.test', A)).resolves.toBe(false);
  });

  it('forgives the account and the pair on success', async () => {
    await fail('f@x.test', A, 4);
    await throttle.recordSuccess('f@x.test', A);
    await fail('f@x.test', A, 4);
    await expect(throttle.check('f@x.test', A)).resolves.toEqual(expect.any(Boolean));
  });
});
