import { EventEmitter2 } from '@nestjs/event-emitter';
import request from 'supertest';
import { ApiKey } from '../../../src/administration/integrations/api-keys/entities/api-key.entity';
import { sha256 } from '../../../src/platform/crypto/secrets';
import { RATE_LIMITS } from '../../../src/platform/web/throttling/rate-limits';
import { ACCOUNT_CHANGED, AccountChanged } from '../../../src/identity/users';
import { AccountEvent } from '../../../src/shared/identity/account-events';
import { API_KEYS_MAX, ApiKeyScope, NewApiKey } from '../../../src/shared/administration/api-keys';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, LoggedIn, login } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { listRoutes } from '../../utils/routes';
import { ageSession } from '../../utils/step-up';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';

const ALL: ApiKeyScope[] = ['users:read', 'users:write', 'audit:read'];

/**
 * Organisation API keys (docs/api-keys.md): managed by the site admin or E-Support, shown once, stored hashed; a key
 * acts for its own organisation as an Administrator within its scopes, never a sensitive call; revoked at once.
 */
describe('Organisation API keys', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());
  // Each test makes the keys it uses; clearing the organisation's keeps it under its limit of keys.
  beforeEach(() => t.db.getRepository(ApiKey).delete({ organisationId: m.org.id }));

  const http = () => request(t.http);
  const admin = () => m.byRole.SITE_ADMIN.session.auth;
  let n = 0;
  const create = async (scopes: ApiKeyScope[] = ALL, auth: LoggedIn['auth'] = admin(), extra: object = {}) =>
    (
      await http()
        .post('/api/api-keys')
        .set(auth)
        .send({ name: `Key ${n++}`, scopes, ...extra })
        .expect(201)
    ).body as NewApiKey;
  const as = (key: string) => ({ Authorization: `Bearer ${key}` });
  const keysOf = (organisationId: number) => t.db.getRepository(ApiKey).findBy({ organisationId });
  /** A route of the table called with a key, its path parameters 1 and an empty body. */
  const callRoute = (method: string, path: string, key: string) => {
    const agent = request(t.http);
    const verb = method.toLowerCase() as 'get';
    return agent[verb](path.replace(/:(\w+)/g, '1'))
      .set(as(key))
      .send({});
  };
  const insufficient = (res: request.Response) => {
    expectErrorBody(res, 403);
    expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
  };

  describe('managing keys', () => {
    it('POST: the site admin, or E-Support for a named organisation; every other role 403; another organisation 404', async () => {
      const q = `?organisationId=${m.org.id}`;
      expect(
        await statusesFor(m, (a) =>
          http()
            .post(`/api/api-keys${q}`)
            .set(a.session.auth)
            .send({ name: `Role ${n++}`, scopes: ['users:read'] }),
        ),
      ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 201));
      const before = (await keysOf(m.org.id)).length;
      expectErrorBody(
        await http()
          .post(`/api/api-keys${q}`)
          .set(m.otherOrgAdmin.session.auth)
          .send({ name: 'x', scopes: ['users:read'] }),
        404,
      );
      // E-Support without an organisation names its own, the vendor's, which has no keys.
      expectErrorBody(
        await http()
          .post('/api/api-keys')
          .set(m.byRole.E_SUPPORT.session.auth)
          .send({ name: 'x', scopes: ['users:read'] }),
        400,
      );
      expect(await keysOf(m.org.id)).toHaveLength(before);
      await http()
        .post('/api/api-keys')
        .send({ name: 'x', scopes: ['users:read'] })
        .expect(401);
    });

    it('GET: the site admin and E-Support; others 403; another organisation 404; never the key or its hash', async () => {
      const made = await create(['users:read', 'audit:read']);
      expect(
        await statusesFor(m, (a) => http().get(`/api/api-keys?organisationId=${m.org.id}`).set(a.session.auth)),
      ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 200));
      const list = (await http().get('/api/api-keys').set(admin()).expect(200)).body as Array<Record<string, unknown>>;
      expect(list.find((i) => i.id === made.id)).toEqual({
        id: made.id,
        name: made.name,
        prefix: made.key.slice(0, 12),
        scopes: ['users:read', 'audit:read'],
        organisationId: m.org.id,
        createdAt: made.createdAt,
        createdBy: m.byRole.SITE_ADMIN.user.email,
        expiresAt: null,
        lastUsedAt: null,
      });
      expect(JSON.stringify(list)).not.toContain(made.key);
      expect(JSON.stringify(list)).not.toContain(sha256(made.key));
      expectErrorBody(
        await http().get(`/api/api-keys?organisationId=${m.org.id}`).set(m.otherOrgAdmin.session.auth),
        404,
      );
      expect((await http().get('/api/api-keys').set(m.otherOrgAdmin.session.auth).expect(200)).body).toEqual([]);
      await http().get('/api/api-keys').expect(401);
    });

    it('shows the key once (tpk_ and 32 random bytes) and stores only its SHA-256', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const made = await create(['audit:read', 'users:read'], admin(), { expiresAt });
      expect(made).toEqual({
        id: expect.any(Number),
        name: expect.any(String),
        key: expect.stringMatching(/^tpk_[A-Za-z0-9_-]{43}$/),
        prefix: made.key.slice(0, 12),
        scopes: ['users:read', 'audit:read'],
        createdAt: expect.any(String),
        expiresAt,
      });
      const row = await t.db.getRepository(ApiKey).findOneByOrFail({ id: made.id });
      expect(row.keyHash).toBe(sha256(made.key));
      expect(JSON.stringify(await t.db.query('SELECT * FROM api_keys'))).not.toContain(made.key);
    });

    it('refuses bad input with 400 and stores nothing', async () => {
      const before = (await keysOf(m.org.id)).length;
      const past = new Date(Date.now() - 60_000).toISOString();
      for (const body of [
        {},
        { name: 'x' },
        { name: '', scopes: ['users:read'] },
        { name: 'x'.repeat(51), scopes: ['users:read'] },
        { name: 'x', scopes: [] },
        { name: 'x', scopes: ['users:delete'] },
        { name: 'x', scopes: 'users:read' },
        { name: 'x', scopes: ['users:read', 'users:read'] },
        { name: 'x', scopes: ['users:read'], expiresAt: past },
        { name: 'x', scopes: ['users:read'], expiresAt: 'tomorrow' },
        { name: 'x', scopes: ['users:read'], organisationId: m.otherOrg.id },
      ])
        expectErrorBody(await http().post('/api/api-keys').set(admin()).send(body), 400);
      expectErrorBody(await http().delete('/api/api-keys/abc').set(admin()), 400);
      expect(await keysOf(m.org.id)).toHaveLength(before);
    });

    it('creating and revoking are sensitive: a session without a recent proof gets 403 STEP_UP_REQUIRED', async () => {
      const made = await create();
      const stale = await createUser(t, m.org, { roleId: Role.SITE_ADMIN });
      const session = await login(t, stale.email);
      await ageSession(t, session, 120);
      const refused = await http()
        .post('/api/api-keys')
        .set(session.auth)
        .send({ name: 'x', scopes: ['users:read'] });
      expectErrorBody(refused, 403);
      expect(refused.body.code).toBe('STEP_UP_REQUIRED');
      const revoke = await http().delete(`/api/api-keys/${made.id}`).set(session.auth);
      expect(revoke.body.code).toBe('STEP_UP_REQUIRED');
      await http().get('/api/api-keys').set(session.auth).expect(200);
    });

    it('DELETE: the site admin or E-Support; other roles 403, another organisation 404; audited both ways', async () => {
      const made = await create(['users:read']);
      for (const role of ['ADMINISTRATOR', 'STANDARD_ADMIN', 'PORTFOLIO_MANAGER', 'ANALYST', 'VIEWER', 'CA_VIEWER'])
        expectErrorBody(await http().delete(`/api/api-keys/${made.id}`).set(m.byRole[role].session.auth), 403);
      expectErrorBody(await http().delete(`/api/api-keys/${made.id}`).set(m.otherOrgAdmin.session.auth), 404);
      await http().get('/api/users').set(as(made.key)).expect(200);
      await http().delete(`/api/api-keys/${made.id}`).set(admin()).expect(200, { success: true });
      expectErrorBody(await http().delete(`/api/api-keys/${made.id}`).set(admin()), 404);
      const byE = await create(['users:read']);
      await http().delete(`/api/api-keys/${byE.id}`).set(m.byRole.E_SUPPORT.session.auth).expect(200);
      const events = (
        await http()
          .get(`/api/audit-events?searchText=${encodeURIComponent(made.name)}`)
          .set(admin())
          .expect(200)
      ).body.items as Array<{ type: string; actorEmail: string }>;
      expect(events.map((e) => e.type).sort()).toEqual(['API_KEY_CREATED', 'API_KEY_REVOKED']);
    });

    it('a key never manages keys', async () => {
      const made = await create();
      insufficient(await http().get('/api/api-keys').set(as(made.key)));
      insufficient(
        await http()
          .post('/api/api-keys')
          .set(as(made.key))
          .send({ name: 'x', scopes: ['users:read'] }),
      );
      insufficient(await http().delete(`/api/api-keys/${made.id}`).set(as(made.key)));
    });

    it('parallel creations all succeed with distinct keys, up to the limit and not one more', async () => {
      const org = await createOrganisation(t);
      const site = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const s = await login(t, site.email);
      const results = await Promise.all(
        Array.from({ length: API_KEYS_MAX + 5 }, (_, i) =>
          http()
            .post('/api/api-keys')
            .set(s.auth)
            .send({ name: `P${i}`, scopes: ['users:read'] }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((x) => x === 201)).toHaveLength(API_KEYS_MAX);
      expect(statuses.filter((x) => x === 409)).toHaveLength(5);
      const keys = results.filter((r) => r.status === 201).map((r) => (r.body as NewApiKey).key);
      expect(new Set(keys).size).toBe(API_KEYS_MAX);
      expect(await keysOf(org.id)).toHaveLength(API_KEYS_MAX);
    });
  });

  describe('calling with a key', () => {
    it('users:read: the user list, a user, their groups and the organisation; nothing else', async () => {
      const key = (await create(['users:read'])).key;
      const list = await http().get('/api/users').set(as(key)).expect(200);
      const emails = JSON.stringify(list.body);
      expect(emails).toContain(m.byRole.VIEWER.user.email);
      expect(emails).not.toContain(m.otherOrgAdmin.user.email);
      await http().get(`/api/users/byId/${m.byRole.VIEWER.user.id}`).set(as(key)).expect(200);
      await http().get(`/api/users/${m.byRole.VIEWER.user.id}/user-groups`).set(as(key)).expect(200);
      const org = await http().get('/auth/organisation').set(as(key)).expect(200);
      expect(org.body.id).toBe(m.org.id);
      insufficient(await http().get('/api/audit-events').set(as(key)));
      insufficient(
        await http()
          .put('/api/users/disableUser')
          .set(as(key))
          .send({ userId: m.byRole.VIEWER.user.id, isDisabled: true }),
      );
      insufficient(await http().get('/api/users/current').set(as(key)));
    });

    it('users:write: add, roles, access, MFA enforcement and groups, as an Administrator; no reads', async () => {
      const key = await create(['users:write']);
      const added = await http()
        .post('/api/users/add')
        .set(as(key.key))
        .send({ userEmail: `added-${n++}@example.com`, userRoleIds: [Role.ANALYST] })
        .expect(201);
      const id = added.body.id as number;
      await http()
        .put('/api/users/updateRole')
        .set(as(key.key))
        .send({ userId: id, newUserRoleIds: [Role.VIEWER] })
        .expect(200);
      await http().put('/api/users/disableUser').set(as(key.key)).send({ userId: id, isDisabled: true }).expect(200);
      await http().put('/api/users/disableUser').set(as(key.key)).send({ userId: id, isDisabled: false }).expect(200);
      await http().put('/api/users/enforceMFA').set(as(key.key)).send({ userId: id, isMFAEnforced: false }).expect(200);
      const group = await http()
        .post('/api/user-groups')
        .set(as(key.key))
        .send({ name: `Group ${n++}` })
        .expect(201);
      await http().put(`/api/users/${id}/user-groups/${group.body.id}`).set(as(key.key)).expect(200);
      await http().delete(`/api/users/${id}/user-groups/${group.body.id}`).set(as(key.key)).expect(200);
      insufficient(await http().get('/api/users').set(as(key.key)));
      insufficient(await http().get(`/api/users/${id}/user-groups`).set(as(key.key)));
    });

    it('audit:read: the audit log of its own organisation only', async () => {
      const key = (await create(['audit:read'])).key;
      const res = await http().get('/api/audit-events?pageSize=100').set(as(key)).expect(200);
      const orgs = new Set((res.body.items as Array<{ organisationId: number }>).map((e) => e.organisationId));
      expect([...orgs]).toEqual([m.org.id]);
      expectErrorBody(await http().get(`/api/audit-events?organisationId=${m.otherOrg.id}`).set(as(key)), 400);
      insufficient(await http().get('/api/users').set(as(key)));
    });

    it('every other route that needs a signed-in caller answers 403 INSUFFICIENT_SCOPE, even to a key with every scope', async () => {
      const key = (await create(ALL)).key;
      const wrong: string[] = [];
      let walked = 0;
      for (const route of listRoutes(t.app)) {
        if (route.access.kind !== 'roles' || route.access.apiKey) continue;
        walked++;
        const res = await callRoute(route.method, route.path, key);
        if (res.status !== 403 || res.body.code !== 'INSUFFICIENT_SCOPE')
          wrong.push(`${route.method} ${route.path}: ${res.status}`);
      }
      expect(walked).toBeGreaterThan(50);
      expect(wrong).toEqual([]);
    });

    it('each scoped route refuses a key without its scope', async () => {
      const scoped = listRoutes(t.app).filter((r) => r.access.kind === 'roles' && r.access.apiKey);
      expect(scoped.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
        [
          'DELETE /api/users/:userId/user-groups/:groupId',
          'GET /api/audit-events',
          'GET /api/users',
          'GET /api/users/:userId/user-groups',
          'GET /api/users/byId/:id',
          'GET /auth/organisation',
          'POST /api/user-groups',
          'POST /api/users/add',
          'PUT /api/users/:userId/user-groups/:groupId',
          'PUT /api/users/disableUser',
          'PUT /api/users/enforceMFA',
          'PUT /api/users/updateRole',
        ].sort(),
      );
      const keys = Object.fromEntries(await Promise.all(ALL.map(async (s) => [s, (await create([s])).key] as const)));
      const wrong: string[] = [];
      for (const route of scoped) {
        const needed = (route.access as { apiKey: ApiKeyScope }).apiKey;
        for (const scope of ALL.filter((s) => s !== needed)) {
          const res = await callRoute(route.method, route.path, keys[scope]);
          if (res.body.code !== 'INSUFFICIENT_SCOPE')
            wrong.push(`${route.method} ${route.path} with ${scope}: ${res.status}`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it('never makes a sensitive call: granting Administrator or Site Admin, exports, switching off MFA', async () => {
      const key = (await create(ALL)).key;
      const viewer = await createUser(t, m.org, { roleId: Role.STANDARD_ADMIN });
      insufficient(
        await http()
          .put('/api/users/updateRole')
          .set(as(key))
          .send({ userId: viewer.id, newUserRoleIds: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR] }),
      );
      insufficient(
        await http()
          .post('/api/users/add')
          .set(as(key))
          .send({ userEmail: `admin-${n++}@example.com`, userRoleIds: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR] }),
      );
      insufficient(await http().get('/api/users/export').set(as(key)));
      insufficient(await http().get('/api/audit-events/export').set(as(key)));
      insufficient(await http().put('/api/mfa/disableUserMfa').set(as(key)).send({ userId: viewer.id }));
      const row = await t.db.query('SELECT "isAdministrator" FROM users WHERE id = ' + Number(viewer.id));
      expect(Boolean(row[0].isAdministrator)).toBe(false);
    });

    it("another organisation's users are invisible and untouchable", async () => {
      const key = (await create(ALL)).key;
      const stranger = await createUser(t, m.otherOrg, { roleId: Role.VIEWER });
      expectErrorBody(await http().get(`/api/users?organisationId=${m.otherOrg.id}`).set(as(key)), 404);
      expectErrorBody(await http().get(`/auth/organisation?organisationId=${m.otherOrg.id}`).set(as(key)), 404);
      expectErrorBody(await http().get(`/api/users/byId/${stranger.id}`).set(as(key)), 404);
      expectErrorBody(await http().get(`/api/users/${stranger.id}/user-groups`).set(as(key)), 404);
      for (const [path, body] of [
        ['/api/users/disableUser', { userId: stranger.id, isDisabled: true }],
        ['/api/users/updateRole', { userId: stranger.id, newUserRoleIds: [Role.ANALYST] }],
        ['/api/users/enforceMFA', { userId: stranger.id, isMFAEnforced: true }],
      ] as const)
        expectErrorBody(await http().put(path).set(as(key)).send(body), 404);
      const after = await t.db.query(`SELECT "roleId", "isDisabled" FROM users WHERE id = ${Number(stranger.id)}`);
      expect(after[0].roleId).toBe(Role.VIEWER);
      expect(Boolean(after[0].isDisabled)).toBe(false);
    });

    it('acts as an Administrator: never on the site admin or E-Support (the account-action rule)', async () => {
      const key = (await create(ALL)).key;
      const site = m.byRole.SITE_ADMIN.user;
      for (const [path, body] of [
        ['/api/users/disableUser', { userId: site.id, isDisabled: true }],
        ['/api/users/updateRole', { userId: site.id, newUserRoleIds: [Role.ANALYST] }],
        ['/api/users/enforceMFA', { userId: site.id, isMFAEnforced: true }],
      ] as const) {
        const res = await http().put(path).set(as(key)).send(body);
        expectErrorBody(res, 403);
        expect(res.body.code).toBe('FORBIDDEN');
      }
      expectErrorBody(
        await http()
          .post('/api/users/add')
          .set(as(key))
          .send({ userEmail: `sa-${n++}@example.com`, userRoleIds: [Role.SITE_ADMIN] }),
        403,
      );
      await http().get('/api/users').set(admin()).expect(200);
    });

    it('unknown, malformed, revoked and expired keys are 401; a revoked key on its very next call', async () => {
      for (const bad of ['tpk_unknown', `tpk_${'A'.repeat(43)}`, `tpk_${'x'.repeat(200)}`])
        expectErrorBody(await http().get('/api/users').set(as(bad)), 401);
      const made = await create(['users:read']);
      await http().get('/api/users').set(as(made.key)).expect(200);
      await http().delete(`/api/api-keys/${made.id}`).set(admin()).expect(200);
      expectErrorBody(await http().get('/api/users').set(as(made.key)), 401);
      const expiring = await create(['users:read'], admin(), {
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      await http().get('/api/users').set(as(expiring.key)).expect(200);
      await t.db.getRepository(ApiKey).update({ id: expiring.id }, { expiresAt: new Date(Date.now() - 1000) });
      expectErrorBody(await http().get('/api/users').set(as(expiring.key)), 401);
    });

    it('names the key as the actor in the audit trail and in the account events', async () => {
      const key = await create(['users:write', 'audit:read']);
      const events: AccountEvent[] = [];
      t.app.get(EventEmitter2).on(ACCOUNT_CHANGED, ({ event }: AccountChanged) => {
        events.push(event);
      });
      const target = await createUser(t, m.org, { roleId: Role.ANALYST });
      await http()
        .put('/api/users/disableUser')
        .set(as(key.key))
        .send({ userId: target.id, isDisabled: true })
        .expect(200);
      const items = (
        await http().get(`/api/audit-events?type=ACCESS_CHANGED&targetId=${target.id}`).set(as(key.key)).expect(200)
      ).body.items as Array<Record<string, unknown>>;
      expect(items[0]).toMatchObject({
        actorKind: 'api-key',
        actorId: key.id,
        actorEmail: key.name,
        targetId: target.id,
      });
      expect(events.find((e) => e.user.id === target.id)).toMatchObject({
        type: 'user.deactivated',
        actor: { type: 'api_key', id: key.id },
      });
    });

    it('writes lastUsedAt on use, at most once a minute', async () => {
      const made = await create(['users:read']);
      await http().get('/api/users').set(as(made.key)).expect(200);
      const first = (await t.db.getRepository(ApiKey).findOneByOrFail({ id: made.id })).lastUsedAt;
      expect(first).not.toBeNull();
      await http().get('/api/users').set(as(made.key)).expect(200);
      expect((await t.db.getRepository(ApiKey).findOneByOrFail({ id: made.id })).lastUsedAt).toEqual(first);
      const listed = (await http().get('/api/api-keys').set(admin()).expect(200)).body as Array<{
        id: number;
        lastUsedAt: string;
      }>;
      expect(listed.find((k) => k.id === made.id)!.lastUsedAt).toBe(new Date(first!).toISOString());
    });

    it('is throttled per key: one key over its budget is refused while another key at the same address carries on', async () => {
      const a = (await create(['users:read'])).key;
      const b = (await create(['users:read'])).key;
      const statuses: number[] = [];
      const total = RATE_LIMITS.PER_ACCOUNT + 20;
      for (let sent = 0; sent < total; sent += 50) {
        const batch = Array.from({ length: Math.min(50, total - sent) }, () =>
          request(t.http).get(`/api/users/byId/${m.byRole.VIEWER.user.id}`).set(as(a)),
        );
        statuses.push(...(await Promise.all(batch)).map((r) => r.status));
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMITS.PER_ACCOUNT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20);
      // The same route (the budget is per route and caller): another key, and the people, carry on.
      await http().get(`/api/users/byId/${m.byRole.VIEWER.user.id}`).set(as(b)).expect(200);
      await http().get(`/api/users/byId/${m.byRole.VIEWER.user.id}`).set(admin()).expect(200);
    });
  });
});
