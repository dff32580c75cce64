import request from 'supertest';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, PASSWORD } from '../../utils/factories';
import { readOutbox } from '../../utils/outbox';
import { createInstanceBeside, createTestApp, TestApp } from '../../utils/test-app';
import { PrivateRedis, startPrivateRedis } from '../../utils/servers/private-redis';
import { DatabaseThrottleStore } from '../../../src/platform/web/throttling/database-throttle-store';

/**
 * Brute-force protection that cannot be turned against the owner: failures lock an account only
 * for the address they come from; the owner signs in from elsewhere and is e-mailed, once, about the attack.
 * Addresses come from X-Forwarded-For (TRUST_PROXY=true), as behind a reverse proxy.
 */
describe('sign-in throttling per account and address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  const attempt = (email: string, password: string, from: string) =>
    request(t.http)
      .post('/auth/login')
      .set('X-Forwarded-For', from)
      .send({ username: email, password, acceptToS: true });

  it("five failures from an attacker's address lock only that address out of the account; the site admin signs in from elsewhere", async () => {
    const admin = await createUser(t, await createOrganisation(t), { roleId: Role.SITE_ADMIN });
    for (let i = 0; i < 5; i++) await attempt(admin.email, `wrong-${i}`, '203.0.113.7').expect(401);
    const locked = await attempt(admin.email, PASSWORD, '203.0.113.7').expect(429);
    expect(locked.body).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      message: 'Too many failed sign-in attempts. Please wait 15 minutes before trying again.',
    });
    await attempt(admin.email, PASSWORD, '198.51.100.20').expect(200);
  });

  it('e-mails the owner once when the account is attacked from many addresses, not once per failure', async () => {
    const user = await createUser(t, await createOrganisation(t));
    // Twelve failures, two from each of six addresses: no pair reaches its bound; the account passes ten.
    for (let i = 0; i < 12; i++) await attempt(user.email, `wrong-${i}`, `203.0.113.${100 + (i % 6)}`).expect(401);
    const alerts = (await readOutbox(t.dataDir)).filter(
      (m) => m.to.includes(user.email) && /failed sign-in attempts/.test(m.subject),
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toContain('10 failed attempts');
  }, 30_000);

  it('slows an attacked account from unknown addresses, not from one where it has a session (the sessions table)', async () => {
    const user = await createUser(t, await createOrganisation(t));
    await attempt(user.email, PASSWORD, '198.51.100.60').expect(200);
    for (let i = 0; i < 12; i++) await attempt(user.email, `wrong-${i}`, `203.0.113.${60 + (i % 6)}`).expect(401);
    const timed = async (from: string, password: string, status: number) => {
      const start = Date.now();
      await attempt(user.email, password, from).expect(status);
      return Date.now() - start;
    };
    // From the tenth failure, 0.5 s more a failure for addresses the account has not signed in from (12: 1.5 s).
    const slowed = await timed('192.0.2.60', 'wrong-again', 401);
    expect(slowed).toBeGreaterThanOrEqual(1500);
    // Thirteen failures would make 2 s; where the account has a session, none. Both answers verify one password,
    // so the known address's answer is quicker by the delay, however loaded the machine is.
    expect(await timed('198.51.100.60', PASSWORD, 200)).toBeLessThan(slowed - 1000);
  }, 30_000);

  it("the profile's password change guesses under the sign-in's lock: five wrong current passwords lock the account from that address, the right one and a sign-in included", async () => {
    const user = await createUser(t, await createOrganisation(t));
    const signedIn = await attempt(user.email, PASSWORD, '198.51.100.70').expect(200);
    const change = (currentPassword: string, from: string) =>
      request(t.http)
        .patch('/api/users/updatePassword')
        .set('Authorization', `Bearer ${signedIn.body.accessToken}`)
        .set('X-Forwarded-For', from)
        .send({ currentPassword, userPassword: 'Brand-New-Horse-42' });
    for (let i = 0; i < 5; i++) {
      const wrong = await change(`Wrong-Guess-${i}`, '203.0.113.70');
      expect([wrong.status, wrong.body.code]).toEqual([400, 'INVALID_CREDENTIALS']);
    }
    const locked = await change(PASSWORD, '203.0.113.70');
    expect([locked.status, locked.body.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
    await attempt(user.email, PASSWORD, '203.0.113.70').expect(429);
    // Nothing changed; from the owner's usual address the change goes through.
    await change(PASSWORD, '198.51.100.70').expect(200);
  }, 30_000);

  it('e-mails nobody for an unknown account, and answers it the same way', async () => {
    const before = (await readOutbox(t.dataDir)).length;
    for (let i = 0; i < 11; i++) {
      const res = await attempt('nobody@nowhere.test', `wrong-${i}`, `203.0.113.${150 + (i % 6)}`).expect(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    }
    expect((await readOutbox(t.dataDir)).length).toBe(before);
  }, 30_000);
});

/**
 * The counts behind a lock live in the database: two instances on one database count together (parallel
 * failures included), and a lock outlives the instance that made it.
 */
describe('sign-in locks kept in the database, shared by instances', () => {
  let first: TestApp;
  let second: TestApp;
  const anotherInstance = () => createInstanceBeside(first, { TRUST_PROXY: 'true' });
  beforeAll(async () => {
    first = await createTestApp({ TRUST_PROXY: 'true' });
    second = await anotherInstance();
  });
  // The second instance shares the first one's database and folder: only the first removes them.
  afterAll(async () => {
    await second?.app.close();
    await first?.close();
  });

  const attempt = (on: TestApp, email: string, password: string, from: string) =>
    request(on.http)
      .post('/auth/login')
      .set('X-Forwarded-For', from)
      .send({ username: email, password, acceptToS: true });
  const counters = async (prefix: string) =>
    (
      (await first.db.query(`SELECT "key", "count" FROM "sign_in_counters" WHERE "key" LIKE '${prefix}%'`)) as Array<{
        key: string;
        count: number | string;
      }>
    ).map((r) => ({ key: r.key, count: Number(r.count) }));

  it('counts failures on both instances together, every one of parallel failures, and locks the pair on both', async () => {
    const user = await createUser(t(), await createOrganisation(t()));
    const from = '203.0.113.41';
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => attempt(i % 2 ? second : first, user.email, `wrong-${i}`, from)),
    );
    expect(answers.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    const refusedAsWrong = answers.filter((r) => r.status === 401).length;
    expect(refusedAsWrong).toBeGreaterThanOrEqual(5);
    // No failure lost between parallel requests: the pair's count is the number of failures answered.
    expect(await counters(`pair:${user.email.toLowerCase()}|`)).toEqual([
      { key: `pair:${user.email.toLowerCase()}|${from}`, count: refusedAsWrong },
    ]);
    await attempt(first, user.email, PASSWORD, from).expect(429);
    await attempt(second, user.email, PASSWORD, from).expect(429);
    await attempt(second, user.email, PASSWORD, '198.51.100.41').expect(200);
  }, 30_000);

  it('keeps a lock after the instance that made it has gone, on an instance started since', async () => {
    const user = await createUser(t(), await createOrganisation(t()));
    const from = '203.0.113.42';
    for (let i = 0; i < 5; i++) await attempt(second, user.email, `wrong-${i}`, from).expect(401);
    await second.app.close();
    second = await anotherInstance();
    const locked = await attempt(second, user.email, PASSWORD, from).expect(429);
    expect(locked.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', statusCode: 429, success: false });
    await attempt(first, user.email, PASSWORD, from).expect(429);
  }, 30_000);

  it('a sign-in with no failures behind it writes no counter; one after failures clears them', async () => {
    const user = await createUser(t(), await createOrganisation(t()));
    const account = `account:${user.email.toLowerCase()}`;
    const before = await counters('');
    await attempt(first, user.email, PASSWORD, '198.51.100.43').expect(200);
    expect(await counters('')).toEqual(before);
    for (let i = 0; i < 3; i++) await attempt(second, user.email, `wrong-${i}`, '203.0.113.43').expect(401);
    expect(await counters(account)).toEqual([{ key: account, count: 3 }]);
    await attempt(first, user.email, PASSWORD, '203.0.113.43').expect(200);
    expect(await counters(account)).toEqual([]);
    expect(await counters(`pair:${user.email.toLowerCase()}|203.0.113.43`)).toEqual([]);
  }, 30_000);

  it('the store restarts an expired count at one and deletes expired rows now and then', async () => {
    const store = new DatabaseThrottleStore(first.db);
    const base = 1_000_000_000_000;
    expect(await store.increment(['test:a', 'test:b'], 1000, base)).toEqual([1, 1]);
    expect(await store.increment(['test:b', 'test:a'], 1000, base + 10)).toEqual([2, 2]);
    expect(await store.increment(['test:a'], 1000, base + 2000)).toEqual([1]);
    expect(await store.get(['test:a', 'test:b'], base + 2000)).toEqual([
      { count: 1, expiresAt: base + 3000 },
      { count: 0, expiresAt: 0 },
    ]);
    // A failure more than the pruning interval later deletes the rows expired by then.
    await store.increment(['test:c'], 1000, base + DatabaseThrottleStore.PRUNE_EVERY_MS + 5000);
    await new Promise((r) => setTimeout(r, 200));
    expect((await counters('test:')).map((c) => c.key)).toEqual(['test:c']);
  });

  const t = () => first;
});

/**
 * With Redis configured, a lock does not depend on it: made before Redis restarts without persistence, or
 * while Redis is down, it holds once Redis is back. The Redis is the test's own, killed and started again.
 */
describe('sign-in locks whatever Redis does', () => {
  let t: TestApp;
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await createTestApp({ TRUST_PROXY: 'true', REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  const attempt = (email: string, password: string, from: string) =>
    request(t.http)
      .post('/auth/login')
      .set('X-Forwarded-For', from)
      .send({ username: email, password, acceptToS: true });

  it('a lock made before Redis restarts without persistence holds after', async () => {
    const user = await createUser(t, await createOrganisation(t));
    for (let i = 0; i < 5; i++) await attempt(user.email, `wrong-${i}`, '203.0.113.51').expect(401);
    await redis.kill();
    await redis.start();
    await attempt(user.email, PASSWORD, '203.0.113.51').expect(429);
  }, 30_000);

  it('failures while Redis is down lock the pair, and the lock holds once Redis is back', async () => {
    const user = await createUser(t, await createOrganisation(t));
    await redis.kill();
    try {
      for (let i = 0; i < 5; i++) await attempt(user.email, `wrong-${i}`, '203.0.113.52').expect(401);
      await attempt(user.email, PASSWORD, '203.0.113.52').expect(429);
    } finally {
      await redis.start();
    }
    await attempt(user.email, PASSWORD, '203.0.113.52').expect(429);
    await attempt(user.email, PASSWORD, '198.51.100.52').expect(200);
  }, 30_000);
});
