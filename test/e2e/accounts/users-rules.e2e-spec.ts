import request from 'supertest';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { ACCOUNT_MESSAGES } from '../../../src/shared/messages';
import { createOrganisation, createUser, login, PASSWORD } from '../../utils/factories';
import { lastMailTo } from '../../utils/outbox';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';
import { target } from '../../utils/users';

/** Spec 000 §3-§5 and §9, docs/product-rules.md §2: the rules behind the user administration calls. */
describe('User administration rules (spec 000 §3, §4, §5, §9)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  const siteAdmin = () => m.byRole.SITE_ADMIN.session.auth;
  const administrator = () => m.byRole.ADMINISTRATOR.session.auth;
  const support = () => m.byRole.E_SUPPORT.session.auth;
  const stored = (id: number) => t.db.getRepository(User).findOneByOrFail({ id });
  const openSessions = async (userId: number) =>
    (await t.db.getRepository(Session).findBy({ userId })).filter((s) => !s.endedAt).length;

  describe('GET /api/users/byId/{id} (spec 000 §3 Single user)', () => {
    it('answers the single user shape, the administrator role beside the main role', async () => {
      const u = await target(t, m.org, {
        firstName: 'Ada',
        lastName: 'Byron',
        jobTitle: 'Tax lead',
        department: 'Tax',
        location: 'London',
        isAdministrator: true,
        isSSO: true,
      });
      const res = await http().get(`/api/users/byId/${u.id}`).set(siteAdmin()).expect(200);
      expect(res.body).toEqual({
        id: u.id,
        organisationId: m.org.id,
        isDisabled: false,
        isMFAEnforced: false,
        isMFAEnabled: false,
        hasPasskey: false,
        isSSO: true,
        firstName: 'Ada',
        lastName: 'Byron',
        userEmail: u.email,
        userUserRoleMapping: [{ roleId: Role.STANDARD_ADMIN }, { roleId: Role.ADMINISTRATOR }],
        jobTitle: 'Tax lead',
        department: 'Tax',
        location: 'London',
        isDirectoryManaged: false,
      });
      expect(res.body.passwordHash).toBeUndefined();
    });

    it('E-Support reads users of any organisation', async () => {
      const u = await target(t, m.otherOrg);
      await http().get(`/api/users/byId/${u.id}`).set(support()).expect(200);
    });
  });

  describe('PUT /api/users/updateRole (spec 000 §4 roles page, docs/product-rules.md §2)', () => {
    const change = (auth: object, userId: number, newUserRoleIds: number[]) =>
      http()
        .put('/api/users/updateRole')
        .set(auth as Record<string, string>)
        .send({ userId, newUserRoleIds });

    it('a site admin sets a main role, and the administrator flag beside the base role', async () => {
      const u = await target(t, m.org, { roleId: Role.ANALYST });
      await change(siteAdmin(), u.id, [Role.STANDARD_ADMIN, Role.ADMINISTRATOR]).expect(200, { success: true });
      expect(await stored(u.id)).toMatchObject({ roleId: Role.STANDARD_ADMIN, isAdministrator: true });
      const list = await http().get('/api/users').query({ searchText: u.email }).set(siteAdmin()).expect(200);
      expect(list.body.items[0].userRoles).toEqual([Role.STANDARD_ADMIN, Role.ADMINISTRATOR]);
      // Turning off the base role clears the flag.
      await change(siteAdmin(), u.id, [Role.VIEWER]).expect(200);
      expect(await stored(u.id)).toMatchObject({ roleId: Role.VIEWER, isAdministrator: false });
    });

    it('refuses the administrator flag without the base role, and two main roles (400)', async () => {
      const u = await target(t, m.org, { roleId: Role.ANALYST });
      const a = await change(siteAdmin(), u.id, [Role.ANALYST, Role.ADMINISTRATOR]).expect(400);
      expect(a.body.message).toBe('The Administrator role can only be held together with the Standard Admin role.');
      const b = await change(siteAdmin(), u.id, [Role.ANALYST, Role.VIEWER]).expect(400);
      expect(b.body.message).toBe('Choose exactly one role, optionally with the Administrator role.');
      await change(siteAdmin(), u.id, []).expect(400);
      await change(siteAdmin(), u.id, [42]).expect(400);
      expect((await stored(u.id)).roleId).toBe(Role.ANALYST);
    });

    it('site admins and administrators assign only the four roles', async () => {
      const u = await target(t, m.org, { roleId: Role.ANALYST });
      for (const role of [Role.SITE_ADMIN, Role.E_SUPPORT, Role.CA_VIEWER]) {
        const res = await change(siteAdmin(), u.id, [role]).expect(403);
        expect(res.body.message).toBe(
          'You can assign only the Standard Admin, Portfolio Manager, Analyst and Viewer roles.',
        );
        await change(administrator(), u.id, [role]).expect(403);
      }
      for (const role of [Role.STANDARD_ADMIN, Role.PORTFOLIO_MANAGER, Role.ANALYST, Role.VIEWER])
        await change(administrator(), u.id, [role]).expect(200);
    });

    it('an administrator cannot grant or remove the administrator flag, but the flag goes with the base role', async () => {
      const plain = await target(t, m.org, { roleId: Role.STANDARD_ADMIN });
      const res = await change(administrator(), plain.id, [Role.STANDARD_ADMIN, Role.ADMINISTRATOR]).expect(403);
      expect(res.body.message).toBe('Only a site admin can grant or remove Administrator privileges.');
      const flagged = await target(t, m.org, { roleId: Role.STANDARD_ADMIN, isAdministrator: true });
      await change(administrator(), flagged.id, [Role.STANDARD_ADMIN]).expect(403);
      await change(administrator(), flagged.id, [Role.ANALYST]).expect(200);
      expect(await stored(flagged.id)).toMatchObject({ roleId: Role.ANALYST, isAdministrator: false });
    });

    it('support assigns only the Site Admin role, in any organisation', async () => {
      const u = await target(t, m.otherOrg, { roleId: Role.ANALYST });
      const res = await change(support(), u.id, [Role.VIEWER]).expect(403);
      expect(res.body.message).toBe('E-Support can assign only the Site Admin role.');
      await change(support(), u.id, [Role.STANDARD_ADMIN, Role.ADMINISTRATOR]).expect(403);
      await change(support(), u.id, [Role.SITE_ADMIN]).expect(200);
      expect((await stored(u.id)).roleId).toBe(Role.SITE_ADMIN);
    });

    it("when editing oneself only one's own role is allowed, unchanged", async () => {
      const me = m.byRole.ADMINISTRATOR;
      await change(administrator(), me.user.id, [Role.STANDARD_ADMIN, Role.ADMINISTRATOR]).expect(200);
      const res = await change(administrator(), me.user.id, [Role.VIEWER]).expect(403);
      expect(res.body.message).toBe('You cannot change your own role.');
      await change(siteAdmin(), m.byRole.SITE_ADMIN.user.id, [Role.STANDARD_ADMIN]).expect(403);
      expect(await stored(me.user.id)).toMatchObject({ roleId: Role.STANDARD_ADMIN, isAdministrator: true });
    });

    it('an administrator cannot change a site admin', async () => {
      const sa = await target(t, m.org, { roleId: Role.SITE_ADMIN });
      await change(administrator(), sa.id, [Role.VIEWER]).expect(403);
      expect((await stored(sa.id)).roleId).toBe(Role.SITE_ADMIN);
    });
  });

  describe('PUT /api/users/disableUser (access; spec 000 §4, §9; active-users limit)', () => {
    it("disabling ends the user's sessions at once; enabling gives access back", async () => {
      const u = await target(t, m.org);
      const s = await login(t, u.email);
      await http().get(`/api/users/byId/${u.id}`).set(s.auth).expect(200);
      await http()
        .put('/api/users/disableUser')
        .set(siteAdmin())
        .send({ userId: u.id, isDisabled: true })
        .expect(200, { success: true });
      await http().get(`/api/users/byId/${u.id}`).set(s.auth).expect(401);
      expect(await openSessions(u.id)).toBe(0);
      await http().post('/auth/login').send({ username: u.email, password: PASSWORD, acceptToS: true }).expect(403);
      await http()
        .put('/api/users/disableUser')
        .set(administrator())
        .send({ userId: u.id, isDisabled: false })
        .expect(200);
      await login(t, u.email);
    });

    it('nobody changes their own access', async () => {
      const res = await http()
        .put('/api/users/disableUser')
        .set(siteAdmin())
        .send({ userId: m.byRole.SITE_ADMIN.user.id, isDisabled: true })
        .expect(403);
      expect(res.body.message).toBe('You cannot change your own access.');
      await http()
        .put('/api/users/enforceMFA')
        .set(siteAdmin())
        .send({ userId: m.byRole.SITE_ADMIN.user.id, isMFAEnforced: true })
        .expect(403);
      await http()
        .put('/api/users/updateSsoStatus')
        .set(siteAdmin())
        .send({ userId: m.byRole.SITE_ADMIN.user.id, isSSOEnabled: false })
        .expect(403);
      expect((await stored(m.byRole.SITE_ADMIN.user.id)).isDisabled).toBe(false);
    });

    it("enabling a user respects the organisation's allowed number of active users", async () => {
      const org = await createOrganisation(t, { allowedUsersNumber: 2 });
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      await createUser(t, org);
      const disabled = await createUser(t, org, { isDisabled: true });
      const s = await login(t, admin.email);
      const res = await http()
        .put('/api/users/disableUser')
        .set(s.auth)
        .send({ userId: disabled.id, isDisabled: false })
        .expect(409);
      expect(res.body).toMatchObject({
        code: 'ACTIVE_USERS_LIMIT',
        message: expect.stringContaining('allowed only 2 active user(s)'),
      });
      expect((await stored(disabled.id)).isDisabled).toBe(true);
    });

    it('validates the payload (400, nothing changes)', async () => {
      const u = await target(t, m.org);
      await http().put('/api/users/disableUser').set(siteAdmin()).send({ userId: u.id, isDisabled: 'yes' }).expect(400);
      await http().put('/api/users/disableUser').set(siteAdmin()).send({ userId: u.id }).expect(400);
      await http()
        .put('/api/users/disableUser')
        .set(siteAdmin())
        .send({ userId: u.id, isDisabled: true, extra: 1 })
        .expect(400);
      expect((await stored(u.id)).isDisabled).toBe(false);
    });
  });

  describe('PUT /api/users/enforceMFA and updateSsoStatus', () => {
    it("enforcing MFA sets the flag and ends that user's sessions (an MFA change)", async () => {
      const u = await target(t, m.org, { isMFAEnforced: false });
      const s = await login(t, u.email);
      await http()
        .put('/api/users/enforceMFA')
        .set(siteAdmin())
        .send({ userId: u.id, isMFAEnforced: true })
        .expect(200, { success: true });
      expect((await stored(u.id)).isMFAEnforced).toBe(true);
      await http().get('/api/users/current').set(s.auth).expect(401);
    });

    it('SSO is turned on only when the organisation has SSO', async () => {
      const u = await target(t, m.org);
      const res = await http()
        .put('/api/users/updateSsoStatus')
        .set(siteAdmin())
        .send({ userId: u.id, isSSOEnabled: true })
        .expect(400);
      expect(res.body.message).toBe('Single sign-on is not enabled for this organisation.');
      const ssoOrg = await createOrganisation(t, { isSSOEnabled: true });
      const admin = await createUser(t, ssoOrg, { roleId: Role.SITE_ADMIN });
      const v = await createUser(t, ssoOrg);
      await http()
        .put('/api/users/updateSsoStatus')
        .set((await login(t, admin.email)).auth)
        .send({ userId: v.id, isSSOEnabled: true })
        .expect(200);
      expect((await stored(v.id)).isSSO).toBe(true);
    });
  });

  describe('POST /api/users/add (spec 000 §3 new user payload, §5, §8, §9)', () => {
    it('creates the user with the defaults and e-mails a temporary password that must be changed at first sign-in', async () => {
      const email = `New.Person.${Date.now()}@Example.com`;
      const res = await http()
        .post('/api/users/add')
        .set(siteAdmin())
        .send({ userEmail: `  ${email} ` })
        .expect(201);
      expect(res.body).toEqual({ success: true, id: expect.any(Number) });
      const u = await stored(res.body.id);
      expect(u).toMatchObject({
        email: email.toLowerCase(),
        organisationId: m.org.id,
        isMFAEnforced: true,
        isSSO: false,
        roleId: Role.STANDARD_ADMIN,
        isAdministrator: false,
        mustChangePassword: true,
      });
      expect(u.passwordHash).toMatch(/^\$argon2id\$/);

      const mail = await lastMailTo(t.dataDir, email.toLowerCase());
      expect(mail?.text).toContain('http://portal.test/logIn');
      const password = mail!.text.match(/Temporary password: (\S+)/)![1];
      expect(u.passwordHash).not.toContain(password);
      const first = await http().post('/auth/login').send({ username: email, password, acceptToS: true }).expect(401);
      expect(first.body.code).toBe('PASSWORD_CHANGE_REQUIRED');
      await http()
        .post('/auth/change-password')
        .set('Authorization', `Bearer ${first.body.challengeToken}`)
        .send({ currentPassword: password, newPassword: 'My-Own-Pass-7' })
        .expect(200);
      await login(t, email, 'My-Own-Pass-7');
    });

    it('takes the role, the administrator flag (site admin) and MFA enforcement from the payload', async () => {
      const email = `flagged-${Date.now()}@example.com`;
      const res = await http()
        .post('/api/users/add')
        .set(siteAdmin())
        .send({
          userEmail: email,
          isMFAEnforced: false,
          userRoleIds: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR],
          isSSO: false,
        })
        .expect(201);
      expect(await stored(res.body.id)).toMatchObject({
        roleId: Role.STANDARD_ADMIN,
        isAdministrator: true,
        isMFAEnforced: false,
      });
    });

    it('an administrator creates users without the administrator flag, SSO or MFA toggles', async () => {
      const base = { isMFAEnforced: true, userRoleIds: [Role.ANALYST], isSSO: false };
      await http()
        .post('/api/users/add')
        .set(administrator())
        .send({ ...base, userEmail: `adm-ok-${Date.now()}@example.com` })
        .expect(201);
      const flag = await http()
        .post('/api/users/add')
        .set(administrator())
        .send({ ...base, userEmail: `adm-1-${Date.now()}@example.com`, userRoleIds: [4, 3] })
        .expect(403);
      expect(flag.body.message).toBe('Only a site admin can grant or remove Administrator privileges.');
      await http()
        .post('/api/users/add')
        .set(administrator())
        .send({ ...base, userEmail: `adm-2-${Date.now()}@example.com`, isMFAEnforced: false })
        .expect(403);
      await http()
        .post('/api/users/add')
        .set(administrator())
        .send({ ...base, userEmail: `adm-3-${Date.now()}@example.com`, isSSO: true })
        .expect(403);
    });

    it('refuses roles outside the four, and SSO when the organisation has none', async () => {
      await http()
        .post('/api/users/add')
        .set(siteAdmin())
        .send({ userEmail: `r-${Date.now()}@example.com`, userRoleIds: [Role.SITE_ADMIN] })
        .expect(403);
      await http()
        .post('/api/users/add')
        .set(siteAdmin())
        .send({ userEmail: `r2-${Date.now()}@example.com`, userRoleIds: [Role.ANALYST, Role.ADMINISTRATOR] })
        .expect(400);
      const sso = await http()
        .post('/api/users/add')
        .set(siteAdmin())
        .send({ userEmail: `s-${Date.now()}@example.com`, isSSO: true })
        .expect(400);
      expect(sso.body.message).toBe('Single sign-on is not enabled for this organisation.');
    });

    it('a duplicate e-mail is a 409 with a clear message, whatever its case', async () => {
      const existing = await target(t, m.org);
      const res = await http()
        .post('/api/users/add')
        .set(siteAdmin())
        .send({ userEmail: existing.email.toUpperCase() })
        .expect(409);
      expect(res.body).toMatchObject({ code: 'DUPLICATE_EMAIL', message: 'A user with this email already exists.' });
    });

    it("another organisation's address is a 409 EMAIL_UNAVAILABLE that does not say it exists (docs/api.md)", async () => {
      const existing = await target(t, m.otherOrg);
      const res = await http()
        .post('/api/users/add')
        .set(siteAdmin())
        .send({ userEmail: existing.email.toUpperCase() })
        .expect(409);
      expect(res.body).toMatchObject({ code: 'EMAIL_UNAVAILABLE', message: ACCOUNT_MESSAGES.EMAIL_UNAVAILABLE });
    });

    it("the validation messages of spec 000 §5: 'User email must not be empty'", async () => {
      for (const userEmail of ['', '   ', undefined]) {
        const res = await http()
          .post('/api/users/add')
          .set(siteAdmin())
          .send({ userEmail, isMFAEnforced: true, userRoleIds: [4], isSSO: false })
          .expect(400);
        expect(res.body.message).toBe('User email must not be empty');
      }
      const bad = await http().post('/api/users/add').set(siteAdmin()).send({ userEmail: 'not-an-email' }).expect(400);
      expect(bad.body.message).toBe('Entered email is not a valid email');
      const long = `${'a'.repeat(60)}@${'b'.repeat(40)}.com`;
      const tooLong = await http().post('/api/users/add').set(siteAdmin()).send({ userEmail: long }).expect(400);
      expect(tooLong.body.message).toBe('Entered email must be less than or equal to 100 characters.');
      await http().post('/api/users/add').set(siteAdmin()).send({ userEmail: 'x@example.com', unknown: 1 }).expect(400);
    });

    it('enforces the allowed number of active users, with a clear message', async () => {
      const org = await createOrganisation(t, { allowedUsersNumber: 2 });
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      await createUser(t, org, { isDisabled: true });
      const s = await login(t, admin.email);
      await http()
        .post('/api/users/add')
        .set(s.auth)
        .send({ userEmail: `lim-1-${Date.now()}@example.com` })
        .expect(201);
      const res = await http()
        .post('/api/users/add')
        .set(s.auth)
        .send({ userEmail: `lim-2-${Date.now()}@example.com` })
        .expect(409);
      expect(res.body.message).toBe(
        'Your organisation is allowed only 2 active user(s), and that many are active already. Disable another user first, or contact support to raise the limit.',
      );
      const info = await http().get('/auth/organisation').set(s.auth).expect(200);
      expect(info.body).toMatchObject({ allowedUsersNumber: 2, activeUsers: 2, isSSOEnabled: false });
      expect(info.body.users).toHaveLength(3);
    });
  });

  describe('GET /auth/organisation (docs/product-rules.md §3 full organisation information)', () => {
    it('answers the organisation, its limits and a light users list', async () => {
      const res = await http().get('/auth/organisation').set(siteAdmin()).expect(200);
      expect(res.body).toMatchObject({
        id: m.org.id,
        code: m.org.code,
        name: m.org.name,
        allowedUsersNumber: 100,
        isSSOEnabled: false,
        activeUsers: expect.any(Number),
      });
      expect(Object.keys(res.body.users[0]).sort()).toEqual(['id', 'isBlocked', 'isDisabled', 'userEmail']);
      expect(res.body.users.every((u: { id: number }) => typeof u.id === 'number')).toBe(true);
    });
  });

  describe('PUT /api/users/updateUser (profile; spec 000 §5 trimmed)', () => {
    it("saves the caller's own profile fields trimmed", async () => {
      const u = await target(t, m.org);
      const s = await login(t, u.email);
      const res = await http()
        .put('/api/users/updateUser')
        .set(s.auth)
        .send({
          firstName: '  Grace ',
          lastName: ' Hopper ',
          jobTitle: ' Admiral ',
          department: ' Navy',
          location: 'Arlington  ',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        id: u.id,
        firstName: 'Grace',
        lastName: 'Hopper',
        jobTitle: 'Admiral',
        department: 'Navy',
        location: 'Arlington',
      });
      expect(await stored(u.id)).toMatchObject({
        firstName: 'Grace',
        lastName: 'Hopper',
        jobTitle: 'Admiral',
        department: 'Navy',
        location: 'Arlington',
      });
    });

    it('refuses fields over 100 characters and unknown fields', async () => {
      const res = await http()
        .put('/api/users/updateUser')
        .set(siteAdmin())
        .send({ firstName: 'x'.repeat(101) })
        .expect(400);
      expect(res.body.message).toBe('First name must be less than or equal to 100 characters.');
      await http().put('/api/users/updateUser').set(siteAdmin()).send({ email: 'new@example.com' }).expect(400);
    });
  });

  describe('PATCH /api/users/updatePassword (current password required, ends every session)', () => {
    it('changes the password with the right current one; every session ends, this one included, with its refresh token', async () => {
      const u = await target(t, m.org);
      const here = await login(t, u.email);
      const elsewhere = await login(t, u.email);
      const wrong = await http()
        .patch('/api/users/updatePassword')
        .set(here.auth)
        .send({ userPassword: 'Changed-Pass-1', currentPassword: 'wrong-password' })
        .expect(400);
      expect(wrong.body.message).toBe('The current password is not correct.');
      await http().get('/api/users/current').set(elsewhere.auth).expect(200);

      await http()
        .patch('/api/users/updatePassword')
        .set(here.auth)
        .send({ userPassword: 'Changed-Pass-1', currentPassword: PASSWORD })
        .expect(200, { success: true });
      for (const s of [elsewhere, here]) {
        const ended = await http().get('/api/users/current').set(s.auth).expect(401);
        expect(ended.body.code).toBe('SESSION_ENDED');
        await http().post('/refresh').set('Cookie', s.cookie).expect(401);
      }
      await http().post('/auth/login').send({ username: u.email, password: PASSWORD, acceptToS: true }).expect(401);
      await login(t, u.email, 'Changed-Pass-1');
    });

    it('validates: missing fields, too long, too short, the same password', async () => {
      const u = await target(t, m.org);
      const s = await login(t, u.email);
      const empty = await http()
        .patch('/api/users/updatePassword')
        .set(s.auth)
        .send({ userPassword: 'Changed-Pass-1', currentPassword: '' })
        .expect(400);
      expect(empty.body.message).toBe('Input fields cannot be empty');
      const long = await http()
        .patch('/api/users/updatePassword')
        .set(s.auth)
        .send({ userPassword: 'x'.repeat(51), currentPassword: PASSWORD })
        .expect(400);
      expect(long.body.message).toBe('Password must be less than or equal to 50 characters.');
      await http()
        .patch('/api/users/updatePassword')
        .set(s.auth)
        .send({ userPassword: 'short', currentPassword: PASSWORD })
        .expect(400);
      await http()
        .patch('/api/users/updatePassword')
        .set(s.auth)
        .send({ userPassword: PASSWORD, currentPassword: PASSWORD })
        .expect(400);
      await http().patch('/api/users/updatePassword').set(s.auth).send({ currentPassword: PASSWORD }).expect(400);
    });
  });
});
