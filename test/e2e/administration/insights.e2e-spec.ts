import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { InsightsReport } from '../../../src/shared/administration/insights';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login, PASSWORD } from '../../utils/factories';
import { expectedStatuses } from '../../utils/org-admin';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

const ADMINS = ['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'];
const SYDNEY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Australia/Sydney',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const today = () => SYDNEY.format(new Date());

describe('Insights (docs/product-rules.md §10): counts kept as sign-ins are audited', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(async () => {
    jest.useRealTimers();
    await t.close();
  });

  const insights = (auth: object, query: Record<string, string | number>) =>
    request(t.http)
      .get('/api/insights')
      .query(query)
      .set(auth as Record<string, string>);
  const wrongLogin = (email: string) =>
    request(t.http).post('/auth/login').send({ username: email, password: 'Wrong-Horse-1', acceptToS: true });

  /** The audit trail's sign-in events of an organisation on a Sydney day. */
  async function auditCounts(organisationId: number, day: string) {
    const events = await t.db.getRepository(AuditEvent).findBy({ organisationId });
    const onDay = events.filter((e) => SYDNEY.format(new Date(e.occurredAt)) === day);
    return {
      succeeded: onDay.filter((e) => e.type === 'SIGN_IN_SUCCEEDED' || e.type === 'SSO_SIGN_IN').length,
      failed: onDay.filter((e) => ['SIGN_IN_FAILED', 'SIGN_IN_LOCKED', 'SSO_SIGN_IN_REFUSED'].includes(e.type)).length,
    };
  }

  it('counts known sign-ins and failures exactly, by method and reason, equal to the audit trail', async () => {
    const org = await createOrganisation(t, { allowedUsersNumber: 12, maxConcurrentUsers: 9 });
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const a = await createUser(t, org);
    const b = await createUser(t, org, { totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
    await createUser(t, org, { isDisabled: true });
    const session = await login(t, admin.email);
    await login(t, a.email);
    await login(t, a.email);
    await wrongLogin(a.email).expect(401);
    await wrongLogin(b.email).expect(401);
    // A wrong TOTP after the right password.
    const step = await request(t.http)
      .post('/auth/login')
      .send({ username: b.email, password: PASSWORD, acceptToS: true })
      .expect(401);
    await request(t.http)
      .post('/auth/login')
      .set('Authorization', `Bearer ${step.body.challengeToken}`)
      .send({ username: b.email, password: PASSWORD, acceptToS: true, mfaToken: '000000' })
      .expect(401);

    const day = today();
    const res = await insights(session.auth, { from: day, to: day }).expect(200);
    const body = res.body as InsightsReport;
    expect(body.signIns).toEqual([
      { date: day, succeeded: 3, failed: 3, byMethod: { password: 3, passkey: 0, sso: 0 } },
    ]);
    expect(body.failureReasons).toEqual([
      { code: 'WRONG_PASSWORD', count: 2 },
      { code: 'WRONG_MFA_CODE', count: 1 },
    ]);
    expect(await auditCounts(org.id, day)).toEqual({ succeeded: 3, failed: 3 });
    // Seats: three active accounts (the disabled one is not), one of them with a second factor.
    expect(body).toMatchObject({
      activeUsers: 3,
      allowedUsers: 12,
      mfaAdoption: { enrolled: 1, total: 3 },
      peakConcurrent: 2,
      maxConcurrent: 9,
      timeZone: 'Australia/Sydney',
    });
    expect(body.trend).toEqual([{ date: day, mfaEnrolled: 1, mfaTotal: 3, peakConcurrent: 2 }]);
  });

  it('counts parallel sign-ins exactly', async () => {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser(t, org)));
    await Promise.all([
      ...users.map((u) => login(t, u.email)),
      ...users.slice(0, 4).map((u) => wrongLogin(u.email).expect(401)),
    ]);
    const session = await login(t, admin.email);
    const day = today();
    const body = (await insights(session.auth, { from: day, to: day }).expect(200)).body as InsightsReport;
    expect(body.signIns[0]).toMatchObject({ succeeded: 9, failed: 4 });
    expect(await auditCounts(org.id, day)).toEqual({ succeeded: 9, failed: 4 });
    expect(body.peakConcurrent).toBe(9);
  });

  it("counts each sign-in in the organisation's day in Australia/Sydney, across midnight there", async () => {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const u = await createUser(t, org);
    // 23:59:30 on 14 November in Sydney (UTC+11), then 00:00:30 on the 15th: one UTC date, two Sydney days.
    jest.useFakeTimers({ doNotFake: FAKE_ONLY_DATE, now: new Date('2026-11-14T12:59:30Z') });
    try {
      await login(t, u.email);
      await wrongLogin(u.email).expect(401);
      jest.setSystemTime(new Date('2026-11-14T13:00:30Z'));
      await login(t, u.email);
      await login(t, u.email);
      const session = await login(t, admin.email);
      const body = (await insights(session.auth, { from: '2026-11-13', to: '2026-11-15' }).expect(200))
        .body as InsightsReport;
      expect(body.signIns.map((d) => [d.date, d.succeeded, d.failed])).toEqual([
        ['2026-11-13', 0, 0],
        ['2026-11-14', 1, 1],
        ['2026-11-15', 3, 0],
      ]);
      expect(await auditCounts(org.id, '2026-11-14')).toEqual({ succeeded: 1, failed: 1 });
      expect(await auditCounts(org.id, '2026-11-15')).toEqual({ succeeded: 3, failed: 0 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('is read by site admins, administrators and E-Support only', async () => {
    const day = today();
    const statuses = await statusesByRole(m, (actor) =>
      insights(actor.session.auth, { from: day, to: day, organisationId: m.org.id }).expect((r) =>
        r.status === 200 || r.status === 403 ? undefined : expectErrorBody(r, r.status),
      ),
    );
    // E-Support names the organisation; the others read their own (the id is theirs).
    expect(statuses).toEqual(expectedStatuses(ADMINS, 200));
  });

  it("refuses another organisation's figures: a site admin naming it gets a 404, and sees only their own", async () => {
    const day = today();
    const other = await insights(m.otherOrgAdmin.session.auth, { from: day, to: day, organisationId: m.org.id });
    expect(other.status).toBe(404);
    expectErrorBody(other, 404);
    const own = (await insights(m.otherOrgAdmin.session.auth, { from: day, to: day }).expect(200)).body;
    // Only the other organisation's own site admin signed in there.
    expect(own.signIns[0].succeeded).toBe(1);
    const mine = (await insights(m.byRole.SITE_ADMIN.session.auth, { from: day, to: day }).expect(200)).body;
    expect(mine.signIns[0].succeeded).toBe(7);
    // E-Support reads any organisation by id; an unknown one is a 404.
    const support = m.byRole.E_SUPPORT.session.auth;
    expect((await insights(support, { from: day, to: day, organisationId: m.otherOrg.id }).expect(200)).body).toEqual(
      own,
    );
    await insights(support, { from: day, to: day, organisationId: 999999 }).expect(404);
  });

  it.each([
    [{ from: '2026-01-01', to: '2027-01-02' }, 'more than 366 days'],
    [{ from: '2026-02-02', to: '2026-02-01' }, 'from after to'],
    [{ from: '2026-02-30', to: '2026-03-01' }, 'not a date'],
    [{ from: 'yesterday', to: '2026-03-01' }, 'not YYYY-MM-DD'],
    [{ to: '2026-03-01' }, 'from missing'],
    [{ from: '2026-01-01', to: '2026-01-02', organisationId: 'x' }, 'organisationId not a number'],
  ] as Array<[Record<string, string>, string]>)('answers 400 for a bad period (%j: %s)', async (query) => {
    const res = await insights(m.byRole.SITE_ADMIN.session.auth, query);
    expect(res.status).toBe(400);
    expectErrorBody(res, 400);
  });

  it('accepts a whole leap year (366 days)', async () => {
    const body = (
      await insights(m.byRole.SITE_ADMIN.session.auth, { from: '2028-01-01', to: '2028-12-31' }).expect(200)
    ).body as InsightsReport;
    expect(body.signIns).toHaveLength(366);
  });

  it('every organisation at a glance: E-Support only, with seats, adoption, SSO, last sign-in and a 30-day trend', async () => {
    const statuses = await statusesByRole(m, (actor) =>
      request(t.http).get('/api/insights/organisations').set(actor.session.auth),
    );
    expect(statuses).toEqual(expectedStatuses(['E_SUPPORT'], 200));
    const res = await request(t.http)
      .get('/api/insights/organisations')
      .set(m.byRole.E_SUPPORT.session.auth)
      .expect(200);
    const row = res.body.find((r: { organisationId: number }) => r.organisationId === m.org.id);
    expect(row).toMatchObject({
      name: m.org.name,
      activeUsers: 7,
      allowedUsers: m.org.allowedUsersNumber,
      mfaAdoption: { enrolled: 0, total: 7 },
      ssoEnabled: false,
    });
    expect(row.signInTrend).toHaveLength(30);
    expect(row.signInTrend[29]).toBe(7);
    expect(Date.parse(row.lastSignInAt)).toBeGreaterThan(Date.now() - 10 * 60_000);
    // The vendor's own organisation is not a customer.
    expect(res.body.some((r: { organisationId: number }) => r.organisationId === m.vendor.id)).toBe(false);
  });
});

/** Only Date is faked: timers, ticks and I/O run as usual, so the database and the server keep working. */
const FAKE_ONLY_DATE: Array<
  | 'hrtime'
  | 'nextTick'
  | 'performance'
  | 'queueMicrotask'
  | 'requestAnimationFrame'
  | 'cancelAnimationFrame'
  | 'requestIdleCallback'
  | 'cancelIdleCallback'
  | 'setImmediate'
  | 'clearImmediate'
  | 'setInterval'
  | 'clearInterval'
  | 'setTimeout'
  | 'clearTimeout'
> = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
];
