import request from 'supertest';
import { RATE_LIMITS } from '../../../src/platform/web/throttling/rate-limits';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

/** Signed-in calls are counted per account, so people sharing one address do not share a budget. */
describe('rate limits per account when signed in', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses the account over its budget while another account at the same address carries on', async () => {
    const org = await createOrganisation(t);
    const a = await login(t, (await createUser(t, org, { roleId: Role.VIEWER })).email);
    const b = await login(t, (await createUser(t, org, { roleId: Role.VIEWER })).email);
    for (let i = 0; i < RATE_LIMITS.PER_ACCOUNT; i++)
      await request(t.http).get('/api/users/current').set(a.auth).expect(200);
    await request(t.http).get('/api/users/current').set(a.auth).expect(429);
    await request(t.http).get('/api/users/current').set(b.auth).expect(200);
  });

  it('lets exactly the budget through when the calls come in parallel', async () => {
    const org = await createOrganisation(t);
    const c = await login(t, (await createUser(t, org, { roleId: Role.VIEWER })).email);
    const statuses: number[] = [];
    const total = RATE_LIMITS.PER_ACCOUNT + 40;
    for (let sent = 0; sent < total; sent += 64) {
      const batch = Array.from({ length: Math.min(64, total - sent) }, () =>
        request(t.http).get('/api/users/current').set(c.auth),
      );
      statuses.push(...(await Promise.all(batch)).map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMITS.PER_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });
});
