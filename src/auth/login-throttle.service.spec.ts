import { LoginThrottleService } from './login-throttle.service';

describe('LoginThrottleService', () => {
  const ip = '10.0.0.1';
  let throttle: LoginThrottleService;
  beforeEach(() => (throttle = new LoginThrottleService()));

  it('locks an account after five failures within the window, whatever is tried next', async () => {
    const now = 1_000_000;
    for (let i = 0; i < 4; i++) throttle.recordFailure('a@x.test', ip, now);
    await expect(throttle.check('a@x.test', ip, now + 10 * 60_000)).resolves.toBeUndefined();
    throttle.recordFailure('a@x.test', ip, now);
    await expect(throttle.check('a@x.test', ip, now + 1000)).rejects.toMatchObject({ status: 429 });
    await expect(throttle.check('A@X.TEST', '10.9.9.9', now + 1000)).rejects.toMatchObject({ status: 429 });
    // The lock lifts after 15 minutes.
    await expect(throttle.check('a@x.test', ip, now + LoginThrottleService.LOCK_MS + 1)).resolves.toBeUndefined();
  });

  it('forgets failures older than the window', async () => {
    const now = 5_000_000;
    for (let i = 0; i < 4; i++) throttle.recordFailure('b@x.test', ip, now);
    throttle.recordFailure('b@x.test', ip, now + LoginThrottleService.WINDOW_MS + 1);
    await expect(throttle.check('b@x.test', ip, now + LoginThrottleService.WINDOW_MS + 2)).resolves.toBeUndefined();
  });

  it('locks an address after many failures across accounts', async () => {
    const now = 9_000_000;
    for (let i = 0; i < LoginThrottleService.ADDRESS_LIMIT; i++) throttle.recordFailure(`u${i}@x.test`, ip, now);
    await expect(throttle.check('fresh@x.test', ip, now + 1)).rejects.toMatchObject({ status: 429 });
    await expect(throttle.check('fresh@x.test', '10.0.0.2', now + 1)).resolves.toBeUndefined();
  });

  it('clears the account counter on success', async () => {
    const now = Date.now();
    for (let i = 0; i < 4; i++) throttle.recordFailure('c@x.test', ip, now);
    throttle.recordSuccess('c@x.test');
    throttle.recordFailure('c@x.test', ip, now);
    await expect(throttle.check('c@x.test', '10.0.0.3', now)).resolves.toBeUndefined();
  });

  it('slows attempts after the third failure of an account', async () => {
    const now = Date.now();
    for (let i = 0; i < 3; i++) throttle.recordFailure('d@x.test', ip, now);
    const started = Date.now();
    await throttle.check('d@x.test', '10.0.0.4', now);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LoginThrottleService.DELAY_STEP_MS - 20);
  });
});
