import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { Role } from '../../../src/shared/roles';
import { User } from '../../../src/platform/database/entities/user.entity';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login } from '../../utils/factories';
import {
  ENTERPRISE,
  ERROR_SCHEMA,
  patchOp,
  provisioningToken,
  SCIM_TYPE,
  scimClient,
  ScimClient,
  scimUser,
} from '../../utils/identity-providers/scim';
import { lastMailTo, linkIn } from '../../utils/outbox';
import { createTestApp, TestApp } from '../../utils/test-app';

/** SCIM Users (docs/product-rules.md §6): the organisation's accounts, under the product's rules as on the pages. */
describe('SCIM 2.0 Users: /scim/v2/Users', () => {
  let t: TestApp;
  let org: Organisation;
  let other: Organisation;
  let scim: ScimClient;
  let otherScim: ScimClient;
  let siteAdmin: User;
  let adminAuth: { Authorization: string };
  let n = 0;
  const email = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}${n++}@acme.test`;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t, { allowedUsersNumber: 1000 });
    other = await createOrganisation(t);
    siteAdmin = await createUser(t, org, { roleId: Role.SITE_ADMIN, firstName: 'Site', lastName: 'Admin' });
    adminAuth = (await login(t, siteAdmin.email)).auth;
    scim = scimClient(t, (await provisioningToken(t, org, 'Entra ID', adminAuth)).token);
    otherScim = scimClient(t, (await provisioningToken(t, other)).token);
  });
  afterAll(() => t.close());

  const stored = (id: number | string) => t.db.getRepository(User).findOneBy({ id: Number(id) });
  const create = async (extra: Record<string, unknown> = {}, userName = email()) =>
    (await scim.post('/Users', scimUser(userName, extra)).expect(201)).body;

  /** Everything of a user a refused request must leave as it was. */
  const snapshot = async (id: number | string) => {
    const { updatedAt: _u, ...rest } = (await stored(id))!;
    return rest;
  };

  it('refuses a missing, malformed or unknown token, and a user access token, with 401 in the SCIM error schema', async () => {
    const userToken = (await login(t, siteAdmin.email)).accessToken;
    for (const authorization of [undefined, 'non-token', 'Bearer ', 'Bearer scim_nope', `Bearer ${userToken}`]) {
      const req = request(t.http).get('/scim/v2/Users');
      const res = await (authorization === undefined ? req : req.set('Authorization', authorization));
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401', detail: expect.any(String) });
      expectErrorBody(res, 401);
    }
  });

  it('POST creates an account of the organisation with the default role, no password, the directory managing it', async () => {
    const userName = email('Ada.Lovelace').replace('ada', 'Ada');
    const res = await scim
      .post('/Users', {
        ...scimUser(userName, { externalId: 'ext-ada', title: 'Tax lead' }),
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: userName, type: 'work', primary: true }],
        [ENTERPRISE]: { department: 'Tax' },
        roles: [],
        password: 'ignored-Pass-1',
      })
      .expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(res.headers.location).toBe(`http://portal.test/scim/v2/Users/${res.body.id}`);
    expect(res.headers.etag).toBe(res.body.meta.version);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      userName,
      externalId: 'ext-ada',
      name: { givenName: 'Ada', familyName: 'Lovelace', formatted: 'Ada Lovelace' },
      title: 'Tax lead',
      active: true,
      emails: [{ value: userName.toLowerCase(), type: 'work', primary: true }],
      [ENTERPRISE]: { department: 'Tax' },
      meta: { resourceType: 'User', location: res.headers.location },
    });
    expect(await stored(res.body.id)).toMatchObject({
      organisationId: org.id,
      email: userName.toLowerCase(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      jobTitle: 'Tax lead',
      department: 'Tax',
      roleId: Role.STANDARD_ADMIN,
      isAdministrator: false,
      passwordHash: null,
      isMFAEnforced: true,
      isDisabled: false,
      externalId: 'ext-ada',
      managedBy: 'scim',
    });
    const created = await t.db
      .getRepository(AuditEvent)
      .findOneByOrFail({ type: 'USER_CREATED', targetId: Number(res.body.id) });
    expect(created).toMatchObject({ actorKind: 'scim-token', actorEmail: 'Entra ID', organisationId: org.id });
  });

  it('takes application/json and application/scim+json bodies alike (scim+json only on /scim)', async () => {
    await request(t.http)
      .post('/scim/v2/Users')
      .set(scim.auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(scimUser(email())))
      .expect(201);
    await request(t.http)
      .post('/scim/v2/Users')
      .set(scim.auth)
      .set('Content-Type', 'application/scim+json; charset=utf-8')
      .send(JSON.stringify(scimUser(email())))
      .expect(201);
    const elsewhere = await request(t.http)
      .post('/api/user-groups')
      .set(adminAuth)
      .set('Content-Type', SCIM_TYPE)
      .send(JSON.stringify({ name: 'Not parsed' }));
    expectErrorBody(elsewhere, 400);
  });

  it('a provisioned account (no password) sets its first password through the e-mailed reset link and signs in', async () => {
    const u = await create();
    await request(t.http).post('/auth/forgot-password').send({ username: u.userName }).expect(200);
    const link = linkIn(await lastMailTo(t.dataDir, u.userName));
    expect(link).toMatch(/^http:\/\/portal\.test\/resetPassword\?token=/);
    const token = decodeURIComponent(new URL(link!).searchParams.get('token')!);
    await request(t.http).post('/auth/reset-password').send({ token, password: 'Directory-Pass-7' }).expect(200);
    const res = await request(t.http)
      .post('/auth/login')
      .send({ username: u.userName, password: 'Directory-Pass-7', acceptToS: true });
    // MFA is enforced on new accounts (spec 000 §9): signed in, with enrolment due.
    expect(res.status).toBe(200);
  });

  it('refuses roles (changed on the roles page only) and bad userNames with 400 SCIM errors, creating nothing', async () => {
    const before = await t.db.getRepository(User).countBy({ organisationId: org.id });
    const cases: Array<[unknown, string]> = [
      [scimUser(email(), { roles: [{ value: 'Site Admin' }] }), 'mutability'],
      [scimUser('not-an-email'), 'invalidValue'],
      [scimUser(`${'x'.repeat(95)}@a.test`), 'invalidValue'],
      [{ ...scimUser(email()), userName: undefined }, 'invalidValue'],
      [scimUser(email(), { name: { givenName: 'x'.repeat(101) } }), 'invalidValue'],
      [scimUser(email(), { active: 'maybe' }), 'invalidValue'],
      [scimUser(email(), { externalId: 5 }), 'invalidValue'],
      [{ userName: email() }, 'invalidSyntax'],
      [[], 'invalidSyntax'],
    ];
    for (const [body, scimType] of cases) {
      const res = await scim.post('/Users', body);
      expect({ status: res.status, scimType: res.body.scimType }).toEqual({ status: 400, scimType });
      expectErrorBody(res, 400);
    }
    expect(await t.db.getRepository(User).countBy({ organisationId: org.id })).toBe(before);
  });

  it('userName is unique across the product, case-insensitively: 409 uniqueness', async () => {
    const u = await create();
    const res = await scim.post('/Users', scimUser(u.userName.toUpperCase())).expect(409);
    expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '409', scimType: 'uniqueness' });
    const foreign = await createUser(t, other);
    await scim.post('/Users', scimUser(foreign.email)).expect(409);
  });

  it('parallel POSTs of one userName: exactly one 201, the rest 409', async () => {
    const userName = email('race');
    const results = await Promise.all(Array.from({ length: 8 }, () => scim.post('/Users', scimUser(userName))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    expect(await t.db.getRepository(User).countBy({ email: userName })).toBe(1);
  });

  it('parallel POSTs stop at the active-user limit (403); inactive accounts do not count', async () => {
    const small = await createOrganisation(t, { allowedUsersNumber: 4 });
    const smallScim = scimClient(t, (await provisioningToken(t, small)).token); // its site admin is 1 of 4
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => smallScim.post('/Users', scimUser(email(`limit${i}`)))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '403', code: 'ACTIVE_USERS_LIMIT' });
    }
    expect(await t.db.getRepository(User).countBy({ organisationId: small.id, isDisabled: false })).toBe(4);
    const inactive = await smallScim.post('/Users', scimUser(email('inactive'), { active: false })).expect(201);
    // Enabling it needs room: refused, unchanged.
    await smallScim
      .patch(`/Users/${inactive.body.id}`, patchOp({ op: 'replace', path: 'active', value: true }))
      .expect(403);
    expect((await stored(inactive.body.id))!.isDisabled).toBe(true);
  });

  it('GET filters with eq on userName (any case), externalId, displayName and id, joined by and', async () => {
    const a = await create({ externalId: 'ext-filter-a', name: { givenName: 'Filter', familyName: 'Alpha' } });
    await create({ externalId: 'ext-filter-b' });
    const q = async (filter: string) =>
      (await scim.get(`/Users?filter=${encodeURIComponent(filter)}`).expect(200)).body;
    const byName = await q(`userName eq "${a.userName.toUpperCase()}"`);
    expect(byName).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect(byName.Resources[0].id).toBe(a.id);
    expect((await q('externalId eq "ext-filter-a"')).Resources.map((r: { id: string }) => r.id)).toEqual([a.id]);
    expect((await q('displayName eq "Filter Alpha"')).totalResults).toBe(1);
    expect((await q(`id eq "${a.id}"`)).totalResults).toBe(1);
    expect((await q(`userName eq "${a.userName}" and externalId eq "ext-filter-a"`)).totalResults).toBe(1);
    expect((await q(`userName eq "${a.userName}" and externalId eq "ext-filter-b"`)).totalResults).toBe(0);
    expect((await q('userName eq "nobody@nowhere.test"')).totalResults).toBe(0);
    expect((await q(`urn:ietf:params:scim:schemas:core:2.0:User:userName eq "${a.userName}"`)).totalResults).toBe(1);
    for (const bad of ['userName co "a"', 'userName eq', 'title eq "x"', 'userName eq "a" or userName eq "b"', '((']) {
      const res = await scim.get(`/Users?filter=${encodeURIComponent(bad)}`).expect(400);
      expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], scimType: 'invalidFilter' });
    }
  });

  it('pages with startIndex and count, in id order, never beyond the organisation', async () => {
    const all = (await scim.get('/Users?count=200').expect(200)).body;
    expect(all.totalResults).toBe(await t.db.getRepository(User).countBy({ organisationId: org.id }));
    const page = (await scim.get('/Users?startIndex=2&count=2').expect(200)).body;
    expect(page).toMatchObject({ startIndex: 2, itemsPerPage: 2, totalResults: all.totalResults });
    expect(page.Resources.map((r: { id: string }) => r.id)).toEqual(
      all.Resources.slice(1, 3).map((r: { id: string }) => r.id),
    );
    expect((await scim.get('/Users?count=0').expect(200)).body).toMatchObject({ itemsPerPage: 0, Resources: [] });
    expect((await scim.get('/Users?startIndex=0&count=1').expect(200)).body.startIndex).toBe(1);
    await scim.get('/Users?count=abc').expect(400);
    const foreignIds = (await t.db.getRepository(User).findBy({ organisationId: other.id })).map((u) => String(u.id));
    expect(all.Resources.some((r: { id: string }) => foreignIds.includes(r.id))).toBe(false);
  });

  it('attributes and excludedAttributes shape the answer; id, schemas and meta always stay', async () => {
    const u = await create({ title: 'Shown' });
    const only = (await scim.get(`/Users/${u.id}?attributes=userName,name.givenName`).expect(200)).body;
    expect(Object.keys(only).sort()).toEqual(['id', 'meta', 'name', 'schemas', 'userName']);
    expect(only.name).toEqual({ givenName: 'Given' });
    const without = (await scim.get(`/Users/${u.id}?excludedAttributes=title,emails,name.formatted`).expect(200)).body;
    expect(without.title).toBeUndefined();
    expect(without.emails).toBeUndefined();
    expect(without.name).toEqual({ givenName: 'Given', familyName: 'Family' });
    const listed = (await scim.get(`/Users?attributes=userName&filter=${encodeURIComponent(`id eq "${u.id}"`)}`)).body;
    expect(Object.keys(listed.Resources[0]).sort()).toEqual(['id', 'meta', 'schemas', 'userName']);
  });

  it('PATCH as Entra ID sends it: capitalised ops, "False", enterprise paths, paths with filters', async () => {
    const u = await create();
    const res = await scim
      .patch(
        `/Users/${u.id}`,
        patchOp(
          { op: 'Replace', path: 'name.familyName', value: 'Updated' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'ignored@acme.test' },
          { op: 'Add', path: `${ENTERPRISE}:department`, value: 'Audit' },
          { op: 'Add', path: 'title', value: 'Partner' },
          { op: 'Replace', path: 'externalId', value: 'ext-patched' },
          { op: 'Add', path: 'preferredLanguage', value: 'en-GB' },
        ),
      )
      .expect(200);
    expect(res.body).toMatchObject({ name: { familyName: 'Updated' }, title: 'Partner', externalId: 'ext-patched' });
    expect(res.body[ENTERPRISE]).toEqual({ department: 'Audit' });
    expect(await stored(u.id)).toMatchObject({ lastName: 'Updated', department: 'Audit', jobTitle: 'Partner' });
    await scim.patch(`/Users/${u.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' })).expect(200);
    expect((await stored(u.id))!.isDisabled).toBe(true);
    await scim.patch(`/Users/${u.id}`, patchOp({ op: 'Replace', path: 'active', value: 'True' })).expect(200);
    expect((await stored(u.id))!.isDisabled).toBe(false);
    await scim.patch(`/Users/${u.id}`, patchOp({ op: 'Remove', path: 'title' })).expect(200);
    expect((await stored(u.id))!.jobTitle).toBe('');
  });

  it('PATCH as Okta sends it: a path-less replace carrying an object, dotted names and the extension inside', async () => {
    const u = await create();
    await scim
      .patch(
        `/Users/${u.id}`,
        patchOp({
          op: 'replace',
          value: {
            'name.givenName': 'Grace',
            name: { familyName: 'Hopper' },
            active: false,
            [ENTERPRISE]: { department: 'Navy' },
            id: u.id,
          },
        }),
      )
      .expect(200);
    expect(await stored(u.id)).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      department: 'Navy',
      isDisabled: true,
    });
  });

  it('PATCH and PUT refuse what they may not change, with the SCIM error and nothing changed', async () => {
    const u = await create();
    const before = await snapshot(u.id);
    const cases: Array<[unknown, number, string]> = [
      [patchOp({ op: 'add', path: 'roles', value: [{ value: 'Site Admin' }] }), 400, 'mutability'],
      [patchOp({ op: 'replace', path: 'userName', value: 'no-email' }), 400, 'invalidValue'],
      [patchOp({ op: 'replace', path: 'active', value: 'perhaps' }), 400, 'invalidValue'],
      [patchOp({ op: 'move', path: 'title', value: 'x' }), 400, 'invalidSyntax'],
      [patchOp({ op: 'remove' }), 400, 'invalidSyntax'],
      [patchOp({ op: 'replace', value: 'not an object' }), 400, 'invalidSyntax'],
      [patchOp(), 400, 'invalidSyntax'],
      [{ Operations: [{ op: 'replace', path: 'title', value: 'x' }] }, 400, 'invalidSyntax'],
      [patchOp({ op: 'replace', path: 'name', value: 'flat' }), 400, 'invalidValue'],
    ];
    for (const [body, status, scimType] of cases) {
      const res = await scim.patch(`/Users/${u.id}`, body);
      expect({ status: res.status, scimType: res.body.scimType }).toEqual({ status, scimType });
    }
    await scim.put(`/Users/${u.id}`, { ...scimUser(u.userName), schemas: ['x'] }).expect(400);
    await scim.put(`/Users/${u.id}`, scimUser(u.userName, { roles: [{ value: 'x' }] })).expect(400);
    expect(await snapshot(u.id)).toEqual(before);
  });

  it('PUT replaces: absent optional attributes are cleared, userName may change, and to a taken one is 409', async () => {
    const u = await create({ title: 'Old', externalId: 'ext-put', [ENTERPRISE]: { department: 'Old' } });
    const renamed = email('renamed');
    const res = await scim.put(`/Users/${u.id}`, { schemas: [scimUser('').schemas[0]], userName: renamed }).expect(200);
    expect(res.body).toMatchObject({ userName: renamed, active: true });
    expect(await stored(u.id)).toMatchObject({ email: renamed, jobTitle: '', department: '', externalId: null });
    const taken = await create();
    await scim.put(`/Users/${u.id}`, scimUser(taken.userName)).expect(409);
  });

  it('active false (PATCH or PUT) ends the account’s sessions at once; DELETE removes it and later reads are 404', async () => {
    const u = await create();
    await t.db.getRepository(User).update({ id: Number(u.id) }, { passwordHash: siteAdmin.passwordHash });
    const session = await login(t, u.userName);
    await request(t.http).get('/api/users/current').set(session.auth).expect(200);
    await scim.patch(`/Users/${u.id}`, patchOp({ op: 'replace', value: { active: false } })).expect(200);
    await request(t.http).get('/api/users/current').set(session.auth).expect(401);
    const ended = await t.db.getRepository(Session).findBy({ userId: Number(u.id) });
    expect(ended.every((s) => s.endedAt && s.endReason === 'disabled')).toBe(true);

    await scim.put(`/Users/${u.id}`, scimUser(u.userName, { active: true })).expect(200);
    const again = await login(t, u.userName);
    await scim.put(`/Users/${u.id}`, scimUser(u.userName, { active: false })).expect(200);
    await request(t.http).get('/api/users/current').set(again.auth).expect(401);

    await scim.put(`/Users/${u.id}`, scimUser(u.userName, { active: true })).expect(200);
    const third = await login(t, u.userName);
    await scim.delete(`/Users/${u.id}`).expect(204);
    await request(t.http).get('/api/users/current').set(third.auth).expect(401);
    expect(await stored(u.id)).toBeNull();
    const gone = await scim.get(`/Users/${u.id}`).expect(404);
    expect(gone.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '404' });
    await scim.delete(`/Users/${u.id}`).expect(404);
    const deleted = await t.db
      .getRepository(AuditEvent)
      .findOneByOrFail({ type: 'USER_DELETED', targetId: Number(u.id) });
    expect(deleted.actorKind).toBe('scim-token');
  });

  it("the organisation's site admin cannot be disabled, removed or renamed through SCIM", async () => {
    const before = await snapshot(siteAdmin.id);
    const id = siteAdmin.id;
    for (const res of [
      await scim.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' })),
      await scim.put(`/Users/${id}`, scimUser(siteAdmin.email, { active: false })),
      await scim.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'userName', value: email('takeover') })),
      await scim.delete(`/Users/${id}`),
    ]) {
      expect({ status: res.status, scimType: res.body.scimType }).toEqual({ status: 400, scimType: 'mutability' });
    }
    expect(await snapshot(id)).toEqual(before);
    // Its name may follow the directory.
    await scim.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'title', value: 'Owner' })).expect(200);
  });

  it("a token of one organisation never reads or changes another's users (404, nothing changed)", async () => {
    const mine = await create();
    const before = await snapshot(mine.id);
    await otherScim.get(`/Users/${mine.id}`).expect(404);
    await otherScim.patch(`/Users/${mine.id}`, patchOp({ op: 'replace', path: 'active', value: false })).expect(404);
    await otherScim.put(`/Users/${mine.id}`, scimUser(mine.userName, { active: false })).expect(404);
    await otherScim.delete(`/Users/${mine.id}`).expect(404);
    const filtered = await otherScim.get(`/Users?filter=${encodeURIComponent(`userName eq "${mine.userName}"`)}`);
    expect(filtered.body.totalResults).toBe(0);
    expect(await snapshot(mine.id)).toEqual(before);
  });

  it('ETags: If-None-Match answers 304; a stale If-Match 412 and nothing changes', async () => {
    const u = await create();
    const first = await scim.get(`/Users/${u.id}`).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{16}"$/);
    await scim.get(`/Users/${u.id}`).set('If-None-Match', etag).expect(304);
    const changed = await scim
      .patch(`/Users/${u.id}`, patchOp({ op: 'replace', path: 'title', value: 'New' }))
      .set('If-Match', etag)
      .expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    const before = await snapshot(u.id);
    await scim
      .patch(`/Users/${u.id}`, patchOp({ op: 'replace', path: 'title', value: 'Lost' }))
      .set('If-Match', etag)
      .expect(412);
    await scim.delete(`/Users/${u.id}`).set('If-Match', etag).expect(412);
    expect(await snapshot(u.id)).toEqual(before);
  });

  it('shows administrators which accounts the directory manages; their directory fields and access are not changed here', async () => {
    const u = await create({ name: { givenName: 'Managed', familyName: 'Person' } });
    const list = await request(t.http).get('/api/users?searchText=Managed Person').set(adminAuth).expect(200);
    expect(
      list.body.items.map((i: { id: number; isDirectoryManaged: boolean }) => [i.id, i.isDirectoryManaged]),
    ).toEqual([[Number(u.id), true]]);
    const plain = await createUser(t, org);
    expect((await request(t.http).get(`/api/users/byId/${plain.id}`).set(adminAuth)).body.isDirectoryManaged).toBe(
      false,
    );
    expect((await request(t.http).get(`/api/users/byId/${u.id}`).set(adminAuth)).body.isDirectoryManaged).toBe(true);
    const access = await request(t.http)
      .put('/api/users/disableUser')
      .set(adminAuth)
      .send({ userId: Number(u.id), isDisabled: true });
    expect(access.status).toBe(403);
    expect(access.body.code).toBe('DIRECTORY_MANAGED');
    await t.db.getRepository(User).update({ id: Number(u.id) }, { passwordHash: siteAdmin.passwordHash });
    const own = await login(t, u.userName);
    const profile = await request(t.http).put('/api/users/updateUser').set(own.auth).send({ firstName: 'Changed' });
    expect(profile.status).toBe(403);
    expect(profile.body.code).toBe('DIRECTORY_MANAGED');
    // The fields the directory does not own (location), and its own values sent back unchanged, are fine.
    await request(t.http)
      .put('/api/users/updateUser')
      .set(own.auth)
      .send({ firstName: 'Managed', location: 'Leeds' })
      .expect(200);
    expect(await stored(u.id)).toMatchObject({ firstName: 'Managed', location: 'Leeds', isDisabled: false });
  });
});
