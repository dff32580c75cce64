import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

/** Spec 000 §2 user admin page, §3 user list item, §5 user filter, §9 page sizes; docs/product-rules.md §3 list with latest login. */
describe('GET /api/users: the user list with filters and paging in the database', () => {
  let t: TestApp;
  let org: Organisation;
  let admin: User;
  let s: LoggedIn;
  const named: Record<string, User> = {};

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t, { name: 'Acme Tax Ltd' });
    admin = await createUser(t, org, {
      roleId: Role.SITE_ADMIN,
      firstName: 'Zed',
      lastName: 'Admin',
      email: 'zed.admin@acme.test',
    });
    const people: Array<[string, Partial<User>]> = [
      [
        'ada',
        {
          firstName: 'Ada',
          lastName: 'Byron',
          email: 'ada@acme.test',
          roleId: Role.STANDARD_ADMIN,
          isAdministrator: true,
        },
      ],
      ['alan', { firstName: 'Alan', lastName: 'Turing', email: 'alan@acme.test', roleId: Role.VIEWER }],
      [
        'grace',
        {
          firstName: 'Grace',
          lastName: 'Hopper',
          email: 'GRACE_H@acme.test'.toLowerCase(),
          roleId: Role.ANALYST,
          isDisabled: true,
        },
      ],
      [
        'percent',
        { firstName: '100%', lastName: 'Sure', email: 'sure@acme.test', roleId: Role.VIEWER, isBlocked: true },
      ],
      [
        'backslash',
        { firstName: 'Back\\slash', lastName: 'User', email: 'bs@acme.test', roleId: Role.PORTFOLIO_MANAGER },
      ],
      ['noname', { firstName: '', lastName: '', email: 'anon@acme.test', roleId: Role.ANALYST }],
    ];
    for (const [key, fields] of people) named[key] = await createUser(t, org, fields);
    // Filler users to page through: 'Filler NNN', all Viewers.
    for (let i = 0; i < 60; i++)
      await createUser(t, org, {
        firstName: 'Filler',
        lastName: `F${String(i).padStart(3, '0')}`,
        email: `filler${i}@acme.test`,
        roleId: Role.VIEWER,
      });
    // Someone of another organisation who must never show up.
    await createUser(t, await createOrganisation(t), {
      firstName: 'Ada',
      lastName: 'Elsewhere',
      email: 'ada.elsewhere@other.test',
    });
    s = await login(t, admin.email);
  });
  afterAll(() => t.close());

  const list = (query: Record<string, unknown> = {}) => request(t.http).get('/api/users').query(query).set(s.auth);
  const emails = (res: request.Response) => res.body.items.map((u: { userEmail: string }) => u.userEmail);

  it('answers one page (default 50) and the total, with the organisation name for the title', async () => {
    const res = await list().expect(200);
    expect(res.body).toMatchObject({
      totalRecords: 67,
      page: 1,
      pageSize: 50,
      organisationId: org.id,
      organisationName: 'Acme Tax Ltd',
    });
    expect(res.body.items).toHaveLength(50);
    const page2 = await list({ page: 2 }).expect(200);
    expect(page2.body.items).toHaveLength(17);
    expect(new Set([...emails(res), ...emails(page2)]).size).toBe(67);
    expect((await list({ pageSize: 25, page: 3 }).expect(200)).body.items).toHaveLength(17);
    expect((await list({ pageSize: 100 }).expect(200)).body.items).toHaveLength(67);
    expect((await list({ page: 9 }).expect(200)).body).toMatchObject({ items: [], totalRecords: 67 });
  });

  it('orders by last name, then first name', async () => {
    const res = await list({ pageSize: 100 }).expect(200);
    const names = res.body.items.map((u: User) => `${u.lastName}|${u.firstName}`);
    expect(names.slice(0, 3)).toEqual(['|', 'Admin|Zed', 'Byron|Ada']);
  });

  it('answers the user list item of spec 000 §3, with the latest login', async () => {
    const res = await list({ searchText: 'ada@acme.test' }).expect(200);
    expect(res.body.items).toEqual([
      {
        id: named.ada.id,
        userEmail: 'ada@acme.test',
        isBlocked: false,
        isDisabled: false,
        userRoles: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR],
        firstName: 'Ada',
        lastName: 'Byron',
        lastLoginDateTime: null,
        isMFAEnforced: false,
        isMFAEnabled: false,
        hasPasskey: false,
        isSSO: false,
        isDirectoryManaged: false,
      },
    ]);
    await login(t, 'ada@acme.test');
    const after = await list({ searchText: 'ada@acme.test' }).expect(200);
    expect(Date.parse(after.body.items[0].lastLoginDateTime)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('filters by name or e-mail, case-insensitively, the full name included', async () => {
    expect(emails(await list({ searchText: 'ADA' }).expect(200))).toEqual(['ada@acme.test']);
    expect(emails(await list({ searchText: 'ada byr' }).expect(200))).toEqual(['ada@acme.test']);
    expect(emails(await list({ searchText: 'TURING' }).expect(200))).toEqual(['alan@acme.test']);
    expect(emails(await list({ searchText: '  alan@ACME ' }).expect(200))).toEqual(['alan@acme.test']);
    expect((await list({ searchText: 'filler' }).expect(200)).body.totalRecords).toBe(60);
    // Paging through a text filter: the total stays right on the last page and past it.
    const last = await list({ searchText: 'Filler', page: 2 }).expect(200);
    expect(last.body).toMatchObject({ totalRecords: 60, page: 2 });
    expect(last.body.items).toHaveLength(10);
    expect((await list({ searchText: 'Filler', page: 3 }).expect(200)).body).toMatchObject({
      items: [],
      totalRecords: 60,
    });
    expect((await list({ searchText: 'nobody at all' }).expect(200)).body).toMatchObject({
      items: [],
      totalRecords: 0,
    });
  });

  it('takes % _ and \\ literally', async () => {
    expect(emails(await list({ searchText: '%' }).expect(200))).toEqual(['sure@acme.test']);
    expect(emails(await list({ searchText: '_' }).expect(200))).toEqual(['grace_h@acme.test']);
    expect(emails(await list({ searchText: '\\' }).expect(200))).toEqual(['bs@acme.test']);
    expect((await list({ searchText: 'a%e' }).expect(200)).body.totalRecords).toBe(0);
  });

  it("filters by access level: 'Has access' is neither blocked nor disabled; 'Has no access' is either", async () => {
    expect(emails(await list({ accessLevel: 'noAccess' }).expect(200)).sort()).toEqual([
      'grace_h@acme.test',
      'sure@acme.test',
    ]);
    expect((await list({ accessLevel: 'hasAccess' }).expect(200)).body.totalRecords).toBe(65);
    expect((await list({ accessLevel: 'all' }).expect(200)).body.totalRecords).toBe(67);
  });

  it('filters by role: the main role, or 3 for the administrator flag; filters combine', async () => {
    expect(emails(await list({ role: Role.ADMINISTRATOR }).expect(200))).toEqual(['ada@acme.test']);
    expect((await list({ role: Role.VIEWER }).expect(200)).body.totalRecords).toBe(62);
    expect(emails(await list({ role: Role.VIEWER, accessLevel: 'noAccess' }).expect(200))).toEqual(['sure@acme.test']);
    expect(emails(await list({ role: Role.ANALYST, searchText: 'anon' }).expect(200))).toEqual(['anon@acme.test']);
  });

  it('validates the query (400)', async () => {
    for (const query of [
      { pageSize: 30 },
      { page: 0 },
      { page: 'x' },
      { accessLevel: 'some' },
      { role: 99 },
      { searchText: 'x'.repeat(101) },
      { sort: 'email' },
    ]) {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });

  it('a non-support caller cannot list another organisation (404); E-Support can', async () => {
    const other = await createOrganisation(t);
    await list({ organisationId: other.id }).expect(404);
    const vendor = await createOrganisation(t, { isVendor: true });
    const support = await login(t, (await createUser(t, vendor, { roleId: Role.E_SUPPORT })).email);
    const res = await request(t.http).get('/api/users').query({ organisationId: org.id }).set(support.auth).expect(200);
    expect(res.body).toMatchObject({ totalRecords: 67, organisationName: 'Acme Tax Ltd' });
    await request(t.http).get('/api/users').query({ organisationId: 999999 }).set(support.auth).expect(404);
  });
});
