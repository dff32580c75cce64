import request from 'supertest';
import { Role } from '../../src/shared/roles';
import { createOrganisation, createUser, PASSWORD } from '../utils/factories';
import { readOutbox } from '../utils/outbox';
import { createTestApp, TestApp } from '../utils/test-app';

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

  it('e-mails nobody for an unknown account, and answers it the same way', async () => {
    const before = (await readOutbox(t.dataDir)).length;
    for (let i = 0; i < 11; i++) {
      const res = await attempt('nobody@nowhere.test', `wrong-${i}`, `203.0.113.${150 + (i % 6)}`).expect(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    }
    expect((await readOutbox(t.dataDir)).length).toBe(before);
  }, 30_000);
});
