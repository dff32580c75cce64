import request from 'supertest';
import { UserFeedback } from '../../../src/portal/feedback/entities/user-feedback.entity';
import { readOutbox } from '../../utils/outbox';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

const SUPPORT_EMAIL = 'feedback-desk@vendor.test';

describe('Feedback (spec 001 §2.9, §5, §7, §8)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_EMAIL });
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const add = (auth: Record<string, string>, body: object) =>
    request(t.http).post('/api/userFeedback/add').set(auth).send(body);

  it('every signed-in role gives feedback; anonymous callers get 401', async () => {
    const statuses = await statusesByRole(m, (a) =>
      add(a.session.auth, { title: 'Role check', content: 'Works for me', userId: a.user.id }),
    );
    expect(Object.values(statuses)).toEqual(Array(8).fill(200));
    await request(t.http).post('/api/userFeedback/add').send({ title: 'x', content: 'y' }).expect(401);
  });

  it('stores the feedback against the caller and e-mails it to SUPPORT_EMAIL', async () => {
    const actor = m.byRole.ANALYST;
    const res = await add(actor.session.auth, {
      title: 'Great reports',
      content: 'The reports page\nsaves me hours.',
      userId: actor.user.id,
    }).expect(200);
    expect(res.body).toEqual({ success: true, id: expect.any(Number) });
    const row = await t.db.getRepository(UserFeedback).findOneByOrFail({ id: res.body.id });
    expect(row).toMatchObject({
      title: 'Great reports',
      content: 'The reports page\nsaves me hours.',
      userId: actor.user.id,
      organisationId: m.org.id,
    });
    const mail = (await readOutbox(t.dataDir))
      .filter((x) => x.to.includes(SUPPORT_EMAIL) && x.subject.includes('Great reports'))
      .pop();
    expect(mail).toBeDefined();
    expect(mail!.text).toContain('saves me hours.');
    expect(mail!.text).toContain(actor.user.email);
    expect(mail!.text).toContain(m.org.code);
  });

  it("refuses a missing title or content with the specification's messages, and changes nothing", async () => {
    const auth = m.byRole.VIEWER.session.auth;
    const before = await t.db.getRepository(UserFeedback).count();
    expect((await add(auth, { title: '   ', content: 'x' }).expect(400)).body).toMatchObject({
      success: false,
      message: 'Please type in a title.',
    });
    expect((await add(auth, { title: 'x', content: '' }).expect(400)).body.message).toBe(
      'Please type in some content.',
    );
    expect((await add(auth, { content: 'x' }).expect(400)).body.message).toBe('Please type in a title.');
    await add(auth, { title: 'x', content: 'y', rating: 5 }).expect(400);
    await add(auth, { title: 'x'.repeat(201), content: 'y' }).expect(400);
    expect(await t.db.getRepository(UserFeedback).count()).toBe(before);
  });

  it("refuses feedback in another user's name (another organisation's user included)", async () => {
    await add(m.byRole.VIEWER.session.auth, { title: 'x', content: 'y', userId: m.otherOrgAdmin.user.id }).expect(400);
    await add(m.otherOrgAdmin.session.auth, { title: 'x', content: 'y', userId: m.byRole.SITE_ADMIN.user.id }).expect(
      400,
    );
  });
});
