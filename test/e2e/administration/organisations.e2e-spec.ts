import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { lastMailTo } from '../../utils/outbox';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { expectedStatuses, siteAdminPayload, uniq } from '../../utils/org-admin';
import { createTestApp, TestApp } from '../../utils/test-app';

const payload = siteAdminPayload;

const passwordIn = (text: string) => /Temporary password: (\S+)/.exec(text)?.[1];

describe('New organisations and support accounts (spec 001 §2.12, §2.13, §5, §6, §8, §9)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_EMAIL_DOMAIN: 'help.vendor.test' });
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const support = () => m.byRole.E_SUPPORT.session.auth;
  const createSiteAdmin = (body: object, auth = support()) =>
    request(t.http).post('/auth/site-admin').set(auth).send(body);
  const addESupport = (body: object, auth = support()) =>
    request(t.http).post('/api/users/add-esupport').set(auth).send(body);

  describe('POST /auth/site-admin', () => {
    it('creates the organisation with its limits, applications and SSO, and its site admin, who gets a temporary password by e-mail and must change it', async () => {
      const body = payload({
        allowedUsersNumber: 5,
        maxConcurrentUsers: 3,
        maxPortfolios: 7,
        masterTaxManagerApplicationIds: [1],
        isSSO: true,
        ssoLogoutUrl: 'https://idp.example.com/logout',
        organizationName: '  Acme Pty Ltd ',
        userEmail: '  New.Admin@Acme.Example.COM ',
      });
      const res = await createSiteAdmin(body).expect(201);
      expect(res.body).toEqual({
        success: true,
        message: 'The user has been created',
        organisationId: expect.any(Number),
        userId: expect.any(Number),
      });

      const org = await t.db.getRepository(Organisation).findOneByOrFail({ id: res.body.organisationId });
      expect(org).toMatchObject({
        code: body.organizationCode,
        name: 'Acme Pty Ltd',
        accountType: 'ORGANIZATION',
        allowedUsersNumber: 5,
        maxConcurrentUsers: 3,
        maxPortfolios: 7,
        applications: ['TAX_MANAGER', 'CA_VIEWER'],
        isSSOEnabled: true,
        ssoLogoutUrl: 'https://idp.example.com/logout',
        isVendor: false,
      });
      const user = await t.db.getRepository(User).findOneByOrFail({ id: res.body.userId });
      expect(user).toMatchObject({
        email: 'new.admin@acme.example.com',
        organisationId: org.id,
        roleId: Role.SITE_ADMIN,
        mustChangePassword: true,
        isAdministrator: false,
      });

      const mail = await lastMailTo(t.dataDir, 'new.admin@acme.example.com');
      const password = passwordIn(mail!.text)!;
      expect(password).toBeTruthy();
      expect(mail!.text).toContain('http://portal.test/logIn');
      // It says what the first sign-in asks: the temporary password, a new one, then MFA (enforced for site admins).
      expect(mail!.text).toContain('2. Choose your own password when asked');
      expect(mail!.text).toContain('3. Enable MFA with an authenticator app');
      expect(user.isMFAEnforced).toBe(true);

      // The temporary password works once the new one is chosen.
      const first = await request(t.http)
        .post('/auth/login')
        .send({ username: user.email, password, acceptToS: true })
        .expect(401);
      expect(first.body.code).toBe('PASSWORD_CHANGE_REQUIRED');
      await request(t.http)
        .post('/auth/change-password')
        .set('Authorization', `Bearer ${first.body.challengeToken}`)
        .send({ currentPassword: password, newPassword: 'Site-Admin-Pass-7' })
        .expect(200);
      const signedIn = await request(t.http)
        .post('/auth/login')
        .send({ username: user.email, password: 'Site-Admin-Pass-7', acceptToS: true })
        .expect(200);
      const me = await request(t.http)
        .get('/api/users/current')
        .set('Authorization', `Bearer ${signedIn.body.accessToken}`)
        .expect(200);
      expect(me.body).toMatchObject({
        organisationCode: org.code,
        masterAccountName: 'Acme Pty Ltd',
        roles: [{ roleName: 'Site Admin' }],
      });
    });

    it('applies the defaults of §9 to what is left out: 1 allowed user, 1 concurrent user, 0 portfolios, CA viewer only, Organization, no SSO', async () => {
      const res = await createSiteAdmin({
        userEmail: `d-${uniq()}@x.example.com`,
        organizationName: 'Defaults',
        organizationCode: `D${uniq()}`.slice(0, 25),
      }).expect(201);
      const org = await t.db.getRepository(Organisation).findOneByOrFail({ id: res.body.organisationId });
      expect(org).toMatchObject({
        allowedUsersNumber: 1,
        maxConcurrentUsers: 1,
        maxPortfolios: 0,
        applications: ['CA_VIEWER'],
        accountType: 'ORGANIZATION',
        isSSOEnabled: false,
        ssoLogoutUrl: null,
      });
    });

    it('an Individual account needs no company name; the SSO logout URL is dropped when SSO is off', async () => {
      const body = payload({
        accountType: 'Individual',
        organizationName: '',
        ssoLogoutUrl: 'https://idp.example.com/logout',
        isSSO: false,
      });
      const res = await createSiteAdmin(body).expect(201);
      const org = await t.db.getRepository(Organisation).findOneByOrFail({ id: res.body.organisationId });
      expect(org).toMatchObject({ accountType: 'INDIVIDUAL', name: body.userEmail, ssoLogoutUrl: null });
    });

    it.each([
      ['an empty company name for an Organization', { organizationName: '  ' }, 'Company name cannot be empty'],
      ['a missing company name', { organizationName: undefined }, 'Company name cannot be empty'],
      ['an empty e-mail', { userEmail: '' }, 'Email cannot be empty'],
      ['a missing e-mail', { userEmail: undefined }, 'Email cannot be empty'],
      ['an invalid e-mail', { userEmail: 'not-an-email' }, 'Please enter a valid email'],
      ['negative portfolios', { maxPortfolios: -1 }, 'Max portfolios must not be negative'],
      ['zero allowed users', { allowedUsersNumber: 0 }, 'Allowed users must be at least 1'],
      ['zero concurrent users', { maxConcurrentUsers: 0 }, 'Concurrent users must be at least 1'],
      ['an empty code', { organizationCode: ' ' }, 'Code cannot be empty'],
      ['a code of 26 characters', { organizationCode: 'C'.repeat(26) }, 'Code must be at most 25 characters'],
      [
        'a role other than Site Admin',
        { userRoleIds: [2, 3] },
        'Only the Site Admin role can be given to the first account of an organisation',
      ],
      [
        'no corporate actions viewer app',
        { masterCorporateActionsApplicationIds: [] },
        'The corporate actions viewer application is always given to a new organisation',
      ],
      ['an unknown account type', { accountType: 'Company' }, "Account type must be 'Organization' or 'Individual'"],
      [
        'a bad SSO logout URL with SSO on',
        { isSSO: true, ssoLogoutUrl: 'javascript:alert(1)' },
        'SSO logout URL must be a valid http(s) URL',
      ],
    ])('refuses %s (400, nothing created)', async (_name, overrides, message) => {
      const body = payload(overrides);
      const res = await createSiteAdmin(body).expect(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400, message });
      expect(await t.db.getRepository(Organisation).existsBy({ code: body.organizationCode })).toBe(false);
    });

    it('accepts a code of exactly 25 characters and 0 portfolios', async () => {
      await createSiteAdmin(
        payload({ organizationCode: `Q${uniq()}`.padEnd(25, 'Q').slice(0, 25), maxPortfolios: 0 }),
      ).expect(201);
    });

    it('refuses a duplicate code (any case) or e-mail with 409 and a clear message, creating nothing', async () => {
      const first = payload();
      await createSiteAdmin(first).expect(201);
      const sameCode = payload({ organizationCode: first.organizationCode.toLowerCase() });
      const code = await createSiteAdmin(sameCode).expect(409);
      expect(code.body.message).toBe('An organisation with this code already exists.');
      expect(await t.db.getRepository(User).existsBy({ email: sameCode.userEmail })).toBe(false);
      const sameEmail = payload({ userEmail: first.userEmail });
      const email = await createSiteAdmin(sameEmail).expect(409);
      expect(email.body.message).toBe('A user with this email already exists.');
      expect(await t.db.getRepository(Organisation).existsBy({ code: sameEmail.organizationCode })).toBe(false);
      // An existing user of another organisation counts too.
      await createSiteAdmin(payload({ userEmail: m.byRole.VIEWER.user.email })).expect(409);
    });

    it('is for E-Support only: every other role, and another organisation, gets 403', async () => {
      const statuses = await statusesByRole(m, (a) => createSiteAdmin(payload(), a.session.auth));
      expect(statuses).toEqual(expectedStatuses(['E_SUPPORT'], 201));
      await createSiteAdmin(payload(), m.otherOrgAdmin.session.auth).expect(403);
      await request(t.http).post('/auth/site-admin').send(payload()).expect(401);
    });
  });

  describe('POST /api/users/add-esupport', () => {
    it('creates an E-Support account from the local part and SUPPORT_EMAIL_DOMAIN, in the vendor organisation, and e-mails its temporary password', async () => {
      const res = await addESupport({ userName: '  Jane.Doe ' }).expect(201);
      expect(res.body).toEqual({
        success: true,
        message: 'Esupport user created successfully.',
        userId: expect.any(Number),
        email: 'jane.doe@help.vendor.test',
      });
      const user = await t.db.getRepository(User).findOneByOrFail({ id: res.body.userId });
      expect(user).toMatchObject({
        email: 'jane.doe@help.vendor.test',
        roleId: Role.E_SUPPORT,
        organisationId: m.vendor.id,
        mustChangePassword: true,
      });
      const mail = await lastMailTo(t.dataDir, 'jane.doe@help.vendor.test');
      expect(passwordIn(mail!.text)).toBeTruthy();
      const login = await request(t.http)
        .post('/auth/login')
        .send({ username: user.email, password: passwordIn(mail!.text), acceptToS: true })
        .expect(401);
      expect(login.body.code).toBe('PASSWORD_CHANGE_REQUIRED');
      const dup = await addESupport({ userName: 'jane.doe' }).expect(409);
      expect(dup.body.message).toBe('A user with this email already exists.');
    });

    it.each([
      [{ userName: '' }, 'Email is required.'],
      [{ userName: '   ' }, 'Email is required.'],
      [{}, 'Email is required.'],
      [{ userName: 'jane@evil.test' }, 'Email cannot contain forbidden characters(@ and |).'],
      [{ userName: 'jane|doe' }, 'Email cannot contain forbidden characters(@ and |).'],
      [{ userName: 'jane doe' }, 'Please enter a valid email'],
    ])('refuses %j', async (body, message) => {
      const res = await addESupport(body).expect(400);
      expect(res.body.message).toBe(message);
    });

    it('tells support the fixed domain (GET api/support-accounts/domain, E-Support only)', async () => {
      expect((await request(t.http).get('/api/support-accounts/domain').set(support()).expect(200)).body).toEqual({
        domain: 'help.vendor.test',
      });
      expect(
        await statusesByRole(m, (a) => request(t.http).get('/api/support-accounts/domain').set(a.session.auth)),
      ).toEqual(expectedStatuses(['E_SUPPORT'], 200));
    });

    it('is for E-Support only', async () => {
      let i = 0;
      const statuses = await statusesByRole(m, (a) =>
        addESupport({ userName: `role-${uniq()}-${i++}` }, a.session.auth),
      );
      expect(statuses).toEqual(expectedStatuses(['E_SUPPORT'], 201));
      await addESupport({ userName: `x${uniq()}` }, m.otherOrgAdmin.session.auth).expect(403);
    });
  });
});
