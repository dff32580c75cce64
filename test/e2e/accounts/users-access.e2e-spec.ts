import { generateSecret } from 'otplib';
import request from 'supertest';
import { Role } from '../../../src/shared/roles';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor, target } from '../../utils/users';

/**
 * Spec 000 §6 and 001 §2.1: every user-administration route, for every role of the catalogue and for a site
 * admin of another organisation (whose view of this organisation's users is a 404).
 */
describe('User administration routes × roles (spec 000 §6, §7; docs/product-rules.md §2, §3)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  const LIST_READERS = ['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR', 'STANDARD_ADMIN'];
  const ROLES_PAGE = ['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'];
  const WRITERS = ['SITE_ADMIN', 'ADMINISTRATOR'];

  it('refuses every route without a token (401)', async () => {
    const calls = [
      http().get('/api/users'),
      http().get('/api/users/byId/1'),
      http()
        .put('/api/users/updateRole')
        .send({ userId: 1, newUserRoleIds: [4] }),
      http().put('/api/users/enforceMFA').send({ userId: 1, isMFAEnforced: true }),
      http().put('/api/users/updateSsoStatus').send({ userId: 1, isSSOEnabled: false }),
      http().put('/api/users/disableUser').send({ userId: 1, isDisabled: true }),
      http().put('/api/users/updateUser').send({ firstName: 'x' }),
      http().patch('/api/users/updatePassword').send({ userPassword: 'Another-Pass-1', currentPassword: 'x' }),
      http().post('/api/users/add').send({ userEmail: 'a@b.co' }),
      http().put('/api/mfa/disableUserMfa').send({ userId: 1 }),
      http().get('/auth/organisation'),
    ];
    for (const call of calls) expect((await call).status).toBe(401);
  });

  it('GET /api/users: support, site admin, administrator, standard admin; others 403; another organisation 404', async () => {
    const statuses = await statusesFor(m, (a, code) =>
      http()
        .get('/api/users')
        .query(code === 'E_SUPPORT' ? { organisationId: m.org.id } : {})
        .set(a.session.auth),
    );
    expect(statuses).toEqual(expected(LIST_READERS, 200));
    await http().get('/api/users').query({ organisationId: m.org.id }).set(m.otherOrgAdmin.session.auth).expect(404);
    const own = await http().get('/api/users').set(m.otherOrgAdmin.session.auth).expect(200);
    expect(own.body.organisationId).toBe(m.otherOrg.id);
    expect(own.body.items.map((u: { userEmail: string }) => u.userEmail)).toEqual([m.otherOrgAdmin.user.email]);
  });

  it("GET /api/users/byId/{id}: another user for the roles page readers; one's own for everyone; another organisation 404", async () => {
    const someone = await target(t, m.org);
    expect(await statusesFor(m, (a) => http().get(`/api/users/byId/${someone.id}`).set(a.session.auth))).toEqual(
      expected(ROLES_PAGE, 200),
    );
    expect(await statusesFor(m, (a) => http().get(`/api/users/byId/${a.user.id}`).set(a.session.auth))).toEqual(
      expected([], 200, 200),
    );
    await http().get(`/api/users/byId/${someone.id}`).set(m.otherOrgAdmin.session.auth).expect(404);
    await http().get('/api/users/byId/999999').set(m.byRole.SITE_ADMIN.session.auth).expect(404);
    await http().get('/api/users/byId/abc').set(m.byRole.SITE_ADMIN.session.auth).expect(400);
  });

  it('PUT /api/users/updateRole: support (Site Admin only), site admin, administrator; others 403; another organisation 404', async () => {
    const statuses = await statusesFor(m, async (a, code) => {
      const u = await target(t, m.org, { roleId: Role.ANALYST });
      return http()
        .put('/api/users/updateRole')
        .set(a.session.auth)
        .send({ userId: u.id, newUserRoleIds: code === 'E_SUPPORT' ? [Role.SITE_ADMIN] : [Role.VIEWER] });
    });
    expect(statuses).toEqual(expected(ROLES_PAGE, 200));
    const u = await target(t, m.org, { roleId: Role.ANALYST });
    await http()
      .put('/api/users/updateRole')
      .set(m.otherOrgAdmin.session.auth)
      .send({ userId: u.id, newUserRoleIds: [Role.VIEWER] })
      .expect(404);
  });

  it('PUT /api/users/enforceMFA: site admin only; another organisation 404', async () => {
    const statuses = await statusesFor(m, async (a) => {
      const u = await target(t, m.org, { isMFAEnforced: false });
      return http().put('/api/users/enforceMFA').set(a.session.auth).send({ userId: u.id, isMFAEnforced: true });
    });
    expect(statuses).toEqual(expected(['SITE_ADMIN'], 200));
    const u = await target(t, m.org);
    await http()
      .put('/api/users/enforceMFA')
      .set(m.otherOrgAdmin.session.auth)
      .send({ userId: u.id, isMFAEnforced: true })
      .expect(404);
  });

  it('PUT /api/users/updateSsoStatus: site admin only; another organisation 404', async () => {
    const statuses = await statusesFor(m, async (a) => {
      const u = await target(t, m.org, { isSSO: true });
      return http().put('/api/users/updateSsoStatus').set(a.session.auth).send({ userId: u.id, isSSOEnabled: false });
    });
    expect(statuses).toEqual(expected(['SITE_ADMIN'], 200));
    const u = await target(t, m.org);
    await http()
      .put('/api/users/updateSsoStatus')
      .set(m.otherOrgAdmin.session.auth)
      .send({ userId: u.id, isSSOEnabled: false })
      .expect(404);
  });

  it('PUT /api/users/disableUser: site admin and administrator; another organisation 404', async () => {
    const statuses = await statusesFor(m, async (a) => {
      const u = await target(t, m.org);
      return http().put('/api/users/disableUser').set(a.session.auth).send({ userId: u.id, isDisabled: true });
    });
    expect(statuses).toEqual(expected(WRITERS, 200));
    const u = await target(t, m.org);
    await http()
      .put('/api/users/disableUser')
      .set(m.otherOrgAdmin.session.auth)
      .send({ userId: u.id, isDisabled: true })
      .expect(404);
  });

  it('PUT /api/users/updateUser: every role, on its own profile only', async () => {
    expect(
      await statusesFor(m, (a) =>
        http().put('/api/users/updateUser').set(a.session.auth).send({ jobTitle: 'Analyst' }),
      ),
    ).toEqual(expected([], 200, 200));
    const someone = await target(t, m.org);
    const res = await http()
      .put('/api/users/updateUser')
      .set(m.byRole.SITE_ADMIN.session.auth)
      .send({ userId: someone.id, firstName: 'Hijack' })
      .expect(403);
    expect(res.body.message).toBe('You can only change your own profile.');
  });

  it('PATCH /api/users/updatePassword: open to every role for its own password (a wrong current password is a 400)', async () => {
    const statuses = await statusesFor(m, (a) =>
      http()
        .patch('/api/users/updatePassword')
        .set(a.session.auth)
        .send({ userPassword: 'Another-Pass-1', currentPassword: 'not-the-password' }),
    );
    expect(statuses).toEqual(expected([], 400, 400));
  });

  it('POST /api/users/add: site admin and administrator; others 403', async () => {
    let n = 0;
    const statuses = await statusesFor(m, (a) =>
      http()
        .post('/api/users/add')
        .set(a.session.auth)
        .send({
          userEmail: `matrix-${n++}-${Date.now()}@example.com`,
          isMFAEnforced: true,
          userRoleIds: [Role.VIEWER],
          isSSO: false,
        }),
    );
    expect(statuses).toEqual(expected(WRITERS, 201));
  });

  it('GET /auth/organisation: support, site admin, administrator, standard admin; another organisation 404', async () => {
    expect(await statusesFor(m, (a) => http().get('/auth/organisation').set(a.session.auth))).toEqual(
      expected(LIST_READERS, 200),
    );
    await http()
      .get('/auth/organisation')
      .query({ organisationId: m.org.id })
      .set(m.otherOrgAdmin.session.auth)
      .expect(404);
    await http()
      .get('/auth/organisation')
      .query({ organisationId: m.org.id })
      .set(m.byRole.E_SUPPORT.session.auth)
      .expect(200);
  });

  it('PUT api/mfa/disableUserMfa: site admin and administrator; others 403; another organisation 404', async () => {
    const statuses = await statusesFor(m, async (a) => {
      const u = await target(t, m.org, { totpSecret: generateSecret() });
      return http().put('/api/mfa/disableUserMfa').set(a.session.auth).send({ userId: u.id });
    });
    expect(statuses).toEqual(expected(WRITERS, 200));
    const u = await target(t, m.org, { totpSecret: generateSecret() });
    await http().put('/api/mfa/disableUserMfa').set(m.otherOrgAdmin.session.auth).send({ userId: u.id }).expect(404);
  });

  it("another organisation's users are never changed through any call", async () => {
    const other = await target(t, m.otherOrg, { roleId: Role.ANALYST, totpSecret: generateSecret() });
    const admin = m.byRole.SITE_ADMIN.session.auth;
    const calls = [
      http().get(`/api/users/byId/${other.id}`).set(admin),
      http()
        .put('/api/users/updateRole')
        .set(admin)
        .send({ userId: other.id, newUserRoleIds: [Role.VIEWER] }),
      http().put('/api/users/enforceMFA').set(admin).send({ userId: other.id, isMFAEnforced: false }),
      http().put('/api/users/updateSsoStatus').set(admin).send({ userId: other.id, isSSOEnabled: false }),
      http().put('/api/users/disableUser').set(admin).send({ userId: other.id, isDisabled: true }),
      http().put('/api/mfa/disableUserMfa').set(admin).send({ userId: other.id }),
    ];
    for (const call of calls) {
      const res = await call;
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, statusCode: 404, code: 'NOT_FOUND', message: 'User not found.' });
    }
    const reread = await http().get(`/api/users/byId/${other.id}`).set(m.otherOrgAdmin.session.auth).expect(200);
    expect(reread.body).toMatchObject({
      isDisabled: false,
      isMFAEnabled: true,
      userUserRoleMapping: [{ roleId: Role.ANALYST }],
    });
  });
});
