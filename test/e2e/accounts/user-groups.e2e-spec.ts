import request from 'supertest';
import { Role } from '../../../src/shared/roles';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor, target } from '../../utils/users';

/** Spec 000 §2 'View User Group Mapping', §6 ({userId}/user-groups: site admin, administrator, standard admin; writers change). */
describe('User groups and the user group mapping', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  const admin = () => m.byRole.SITE_ADMIN.session.auth;
  const WRITERS = ['SITE_ADMIN', 'ADMINISTRATOR'];
  let n = 0;
  const newGroup = async (auth = admin(), name = `Group ${n++}`) =>
    (await http().post('/api/user-groups').set(auth).send({ name }).expect(201)).body;

  it('refuses every route without a token (401)', async () => {
    await http().get('/api/users/1/user-groups').expect(401);
    await http().put('/api/users/1/user-groups/1').expect(401);
    await http().delete('/api/users/1/user-groups/1').expect(401);
    await http().post('/api/user-groups').send({ name: 'x' }).expect(401);
  });

  it('GET /api/users/{userId}/user-groups: site admin, administrator, standard admin; others 403; another organisation 404', async () => {
    const u = await target(t, m.org);
    expect(await statusesFor(m, (a) => http().get(`/api/users/${u.id}/user-groups`).set(a.session.auth))).toEqual(
      expected(['SITE_ADMIN', 'ADMINISTRATOR', 'STANDARD_ADMIN'], 200),
    );
    await http().get(`/api/users/${u.id}/user-groups`).set(m.otherOrgAdmin.session.auth).expect(404);
  });

  it('POST /api/user-groups: writers only; names unique in the organisation, trimmed and required', async () => {
    let i = 0;
    expect(
      await statusesFor(m, (a) =>
        http()
          .post('/api/user-groups')
          .set(a.session.auth)
          .send({ name: `Matrix ${i++}` }),
      ),
    ).toEqual(expected(WRITERS, 201));
    const g = await http().post('/api/user-groups').set(admin()).send({ name: '  Tax team  ' }).expect(201);
    expect(g.body).toEqual({ id: expect.any(Number), name: 'Tax team', memberCount: 0 });
    const dup = await http().post('/api/user-groups').set(admin()).send({ name: 'TAX TEAM' }).expect(409);
    expect(dup.body.message).toBe('A user group with this name already exists.');
    // Another organisation may use the same name.
    await http().post('/api/user-groups').set(m.otherOrgAdmin.session.auth).send({ name: 'Tax team' }).expect(201);
    const empty = await http().post('/api/user-groups').set(admin()).send({ name: '   ' }).expect(400);
    expect(empty.body.message).toBe('Group name must not be empty');
    await http()
      .post('/api/user-groups')
      .set(admin())
      .send({ name: 'x'.repeat(101) })
      .expect(400);
  });

  it("PUT and DELETE a membership: writers only; the mapping lists the user's groups and all groups", async () => {
    const g = await newGroup();
    const statuses = await statusesFor(m, async (a) => {
      const u = await target(t, m.org);
      return http().put(`/api/users/${u.id}/user-groups/${g.id}`).set(a.session.auth);
    });
    expect(statuses).toEqual(expected(WRITERS, 200));
    const removeStatuses = await statusesFor(m, async (a) => {
      const u = await target(t, m.org);
      await http().put(`/api/users/${u.id}/user-groups/${g.id}`).set(admin()).expect(200);
      return http().delete(`/api/users/${u.id}/user-groups/${g.id}`).set(a.session.auth);
    });
    expect(removeStatuses).toEqual(expected(WRITERS, 200));
  });

  it('adds and removes memberships, idempotently', async () => {
    const a = await newGroup(admin(), 'Alpha');
    const b = await newGroup(admin(), 'Beta');
    const u = await target(t, m.org, { firstName: 'Mapped', lastName: 'User' });
    const empty = await http()
      .get(`/api/users/${u.id}/user-groups`)
      .set(m.byRole.STANDARD_ADMIN.session.auth)
      .expect(200);
    expect(empty.body).toMatchObject({
      userId: u.id,
      userEmail: u.email,
      firstName: 'Mapped',
      lastName: 'User',
      groups: [],
    });
    expect(empty.body.allGroups.map((x: { name: string }) => x.name)).toEqual(
      expect.arrayContaining(['Alpha', 'Beta']),
    );

    const added = await http().put(`/api/users/${u.id}/user-groups/${a.id}`).set(admin()).expect(200);
    expect(added.body.groups).toEqual([{ id: a.id, name: 'Alpha', memberCount: 1 }]);
    await http().put(`/api/users/${u.id}/user-groups/${a.id}`).set(m.byRole.ADMINISTRATOR.session.auth).expect(200);
    await http().put(`/api/users/${u.id}/user-groups/${b.id}`).set(admin()).expect(200);
    const both = await http().get(`/api/users/${u.id}/user-groups`).set(admin()).expect(200);
    expect(both.body.groups.map((x: { name: string }) => x.name)).toEqual(['Alpha', 'Beta']);

    const removed = await http().delete(`/api/users/${u.id}/user-groups/${a.id}`).set(admin()).expect(200);
    expect(removed.body.groups).toEqual([{ id: b.id, name: 'Beta', memberCount: 1 }]);
    await http().delete(`/api/users/${u.id}/user-groups/${a.id}`).set(admin()).expect(200);
  });

  it("another organisation's user or group is a 404, and nothing changes", async () => {
    const mine = await newGroup();
    const theirs = (
      await http()
        .post('/api/user-groups')
        .set(m.otherOrgAdmin.session.auth)
        .send({ name: `Theirs ${n++}` })
        .expect(201)
    ).body;
    const myUser = await target(t, m.org);
    const theirUser = await target(t, m.otherOrg, { roleId: Role.ANALYST });
    const g1 = await http().put(`/api/users/${myUser.id}/user-groups/${theirs.id}`).set(admin()).expect(404);
    expect(g1.body.message).toBe('User group not found.');
    await http().put(`/api/users/${theirUser.id}/user-groups/${mine.id}`).set(admin()).expect(404);
    await http().put(`/api/users/${theirUser.id}/user-groups/${theirs.id}`).set(admin()).expect(404);
    await http().delete(`/api/users/${theirUser.id}/user-groups/${theirs.id}`).set(admin()).expect(404);
    await http().get(`/api/users/${myUser.id}/user-groups`).set(m.otherOrgAdmin.session.auth).expect(404);
    const theirView = await http()
      .get(`/api/users/${theirUser.id}/user-groups`)
      .set(m.otherOrgAdmin.session.auth)
      .expect(200);
    expect(theirView.body.groups).toEqual([]);
    expect(theirView.body.allGroups.map((x: { id: number }) => x.id)).not.toContain(mine.id);
    await http().put(`/api/users/${myUser.id}/user-groups/abc`).set(admin()).expect(400);
  });
});
