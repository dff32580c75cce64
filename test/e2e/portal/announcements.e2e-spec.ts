import request from 'supertest';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

describe('Announcements (spec 001 §2.8, §3, §4)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const support = () => m.byRole.E_SUPPORT.session.auth;
  const publish = (body: object) => request(t.http).post('/api/announcements').set(support()).send(body);

  it('only E-Support publishes; every other role is refused with 403', async () => {
    const statuses = await statusesByRole(m, (a) =>
      request(t.http).post('/api/announcements').set(a.session.auth).send({ title: 'Role check', content: 'x' }),
    );
    expect(statuses).toEqual({
      E_SUPPORT: 201,
      SITE_ADMIN: 403,
      ADMINISTRATOR: 403,
      STANDARD_ADMIN: 403,
      PORTFOLIO_MANAGER: 403,
      ANALYST: 403,
      VIEWER: 403,
      CA_VIEWER: 403,
    });
    await request(t.http).post('/api/announcements').send({ title: 'x', content: 'y' }).expect(401);
  });

  it('only E-Support lists the organisations it may address', async () => {
    const statuses = await statusesByRole(m, (a) =>
      request(t.http).get('/api/announcements/organisations').set(a.session.auth),
    );
    expect(statuses).toEqual({
      E_SUPPORT: 200,
      SITE_ADMIN: 403,
      ADMINISTRATOR: 403,
      STANDARD_ADMIN: 403,
      PORTFOLIO_MANAGER: 403,
      ANALYST: 403,
      VIEWER: 403,
      CA_VIEWER: 403,
    });
    await request(t.http).get('/api/announcements/organisations').set(m.otherOrgAdmin.session.auth).expect(403);
    const list = await request(t.http).get('/api/announcements/organisations').set(support()).expect(200);
    expect(list.body).toEqual(
      expect.arrayContaining([
        { id: m.org.id, code: m.org.code, name: m.org.name },
        { id: m.otherOrg.id, code: m.otherOrg.code, name: m.otherOrg.name },
      ]),
    );
  });

  it('refuses a blank title, unknown fields and an unknown organisation', async () => {
    expect((await publish({ title: '', content: 'x' }).expect(400)).body).toMatchObject({
      success: false,
      statusCode: 400,
      message: 'Title is required.',
    });
    await publish({ title: 'x', content: 'y', html: '<b>' }).expect(400);
    expect((await publish({ title: 'x', content: 'y', organisationId: 999999 }).expect(404)).body.message).toBe(
      'Organisation not found.',
    );
  });

  it('every role lists, reads the summary and dismisses; anonymous callers get 401', async () => {
    for (const path of ['/api/announcements', '/api/announcements/summary']) {
      const statuses = await statusesByRole(m, (a) => request(t.http).get(path).set(a.session.auth));
      expect(Object.values(statuses).every((s) => s === 200)).toBe(true);
      await request(t.http).get(path).expect(401);
    }
  });

  it('summary: the latest visible announcement with the field names of the specification; dismissal is per user', async () => {
    const first = await publish({ title: 'Maintenance on Sunday', content: 'The portal is down from 2am.' }).expect(
      201,
    );
    const second = await publish({
      title: 'New reports released',
      content: 'See the reports page.',
      organisationId: m.org.id,
    }).expect(201);
    const viewer = m.byRole.VIEWER.session.auth;
    const analyst = m.byRole.ANALYST.session.auth;

    const summary = await request(t.http).get('/api/announcements/summary').set(viewer).expect(200);
    expect(summary.body).toEqual({
      isLastAnnouncementDismissed: false,
      lastAnnnouncementId: second.body.id,
      lastAnnnouncementTitle: 'New reports released',
    });

    await request(t.http)
      .post(`/api/announcements/${second.body.id}/dismiss`)
      .set(viewer)
      .expect(200, { success: true });
    // Twice is harmless.
    await request(t.http).post(`/api/announcements/${second.body.id}/dismiss`).set(viewer).expect(200);
    expect(
      (await request(t.http).get('/api/announcements/summary').set(viewer).expect(200)).body
        .isLastAnnouncementDismissed,
    ).toBe(true);
    // Another user of the same organisation still sees it.
    expect(
      (await request(t.http).get('/api/announcements/summary').set(analyst).expect(200)).body
        .isLastAnnouncementDismissed,
    ).toBe(false);

    // The list, newest first, marks what the caller dismissed.
    const list = await request(t.http).get('/api/announcements').set(viewer).expect(200);
    const ids = list.body.map((a: { id: number }) => a.id);
    expect(ids.indexOf(second.body.id)).toBeLessThan(ids.indexOf(first.body.id));
    expect(list.body.find((a: { id: number }) => a.id === second.body.id)).toMatchObject({
      dismissed: true,
      organisationId: m.org.id,
      organisationName: m.org.name,
    });
    expect(list.body.find((a: { id: number }) => a.id === first.body.id)).toMatchObject({
      dismissed: false,
      organisationId: null,
    });
  });

  it("another organisation sees the announcements for everyone, not this organisation's; dismissing those is 404", async () => {
    const mine = await publish({
      title: 'Only for the first organisation',
      content: 'x',
      organisationId: m.org.id,
    }).expect(201);
    const other = m.otherOrgAdmin.session.auth;
    const list = await request(t.http).get('/api/announcements').set(other).expect(200);
    expect(list.body.some((a: { id: number }) => a.id === mine.body.id)).toBe(false);
    expect(
      list.body.every(
        (a: { organisationId: number | null }) => a.organisationId === null || a.organisationId === m.otherOrg.id,
      ),
    ).toBe(true);
    const summary = await request(t.http).get('/api/announcements/summary').set(other).expect(200);
    expect(summary.body.lastAnnnouncementId).not.toBe(mine.body.id);
    await request(t.http).post(`/api/announcements/${mine.body.id}/dismiss`).set(other).expect(404);
    await request(t.http).post('/api/announcements/99999999/dismiss').set(other).expect(404);
    await request(t.http).post('/api/announcements/abc/dismiss').set(other).expect(400);
  });

  it('an announcement for everyone reaches the other organisation and E-Support', async () => {
    const all = await publish({ title: 'For everyone', content: 'x' }).expect(201);
    for (const auth of [m.otherOrgAdmin.session.auth, support(), m.byRole.CA_VIEWER.session.auth]) {
      const summary = await request(t.http).get('/api/announcements/summary').set(auth).expect(200);
      expect(summary.body).toMatchObject({ lastAnnnouncementId: all.body.id, lastAnnnouncementTitle: 'For everyone' });
    }
  });
});
