import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { UserGroupMember } from '../../../src/identity/user-groups/entities/user-group-member.entity';
import { UserGroup } from '../../../src/identity/user-groups/entities/user-group.entity';
import { Role } from '../../../src/shared/roles';
import entra from '../fixtures/scim/entra-validator.json';
import okta from '../fixtures/scim/okta-spec-test.json';
import { createOrganisation, createUser, login } from '../../utils/factories';
import {
  ERROR_SCHEMA,
  GROUP_SCHEMA,
  patchOp,
  provisioningToken,
  SCIM_TYPE,
  scimClient,
  ScimClient,
} from '../../utils/identity-providers/scim';
import { createTestApp, TestApp } from '../../utils/test-app';

interface Step {
  note: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  contentType?: string;
  authorization?: string;
  expect: { status: number; json?: Record<string, unknown> };
  save?: Record<string, string>;
}

/** The value at `a.b[0].c`; a key may itself hold dots (the enterprise extension's URN) when it exists whole. */
function at(value: unknown, path: string): unknown {
  let v = value as Record<string, unknown> | undefined;
  const urn = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
  const parts = path.startsWith(urn) ? [urn, ...path.slice(urn.length + 1).split('.')] : path.split('.');
  for (const part of parts) {
    const m = /^([^[]+)(?:\[(\d+)\])?$/.exec(part)!;
    v = v?.[m[1]] as Record<string, unknown> | undefined;
    if (m[2] !== undefined) v = (v as unknown as unknown[] | undefined)?.[Number(m[2])] as Record<string, unknown>;
  }
  return v;
}

const fill = (text: string, vars: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => vars[k] ?? `{{${k}}}`);
const filled = <T>(value: T, vars: Record<string, string>): T => JSON.parse(fill(JSON.stringify(value), vars));

/**
 * Replays the request sequences Microsoft publishes for its SCIM validator and the Entra provisioning service, and
 * the steps of Okta's SCIM 2.0 spec and CRUD tests (fixtures/scim), against the real application; then the Groups
 * rules the fixtures do not reach.
 */
describe('SCIM 2.0 as Microsoft Entra ID and Okta drive it', () => {
  let t: TestApp;
  let org: Organisation;
  let other: Organisation;
  let token: string;
  let scim: ScimClient;
  let otherScim: ScimClient;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t);
    other = await createOrganisation(t);
    await createUser(t, org, { roleId: Role.SITE_ADMIN, firstName: 'Site', lastName: 'Admin' });
    token = (await provisioningToken(t, org)).token;
    scim = scimClient(t, token);
    otherScim = scimClient(t, (await provisioningToken(t, other)).token);
  });
  afterAll(() => t.close());

  async function replay(steps: Step[], vars: Record<string, string>): Promise<string[]> {
    const done: string[] = [];
    for (const raw of steps) {
      const step = filled(raw, vars);
      const path = step.path.replace(/ /g, '%20').replace(/"/g, '%22');
      const m = step.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      const agent = request(t.http);
      let req = agent[m](`/scim/v2${path}`).set('Authorization', step.authorization ?? `Bearer ${token}`);
      if (step.body !== undefined)
        req = req
          .set('Content-Type', step.contentType ?? `${SCIM_TYPE}; charset=utf-8`)
          .send(JSON.stringify(step.body));
      const res = await req;
      const seen = { step: step.note, status: res.status };
      expect(seen).toEqual({ step: step.note, status: step.expect.status });
      if (res.status !== 204) expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      for (const [p, want] of Object.entries(step.expect.json ?? {})) {
        const got = at(res.body, p);
        const check = { step: step.note, path: p, got };
        if (want === '<not-empty>') expect(got === undefined || got === null || got === '').toBe(false);
        else if (want === '<number>') expect(typeof got).toBe('number');
        else if (want === '<absent>') expect(check).toEqual({ ...check, got: undefined });
        else expect(check).toEqual({ ...check, got: want });
      }
      for (const [name, p] of Object.entries(step.save ?? {})) vars[name] = String(at(res.body, p));
      done.push(step.note);
    }
    return done;
  }

  it("replays the Microsoft Entra ID provisioning sequence (its SCIM validator's users and groups)", async () => {
    const id = Date.now().toString(36);
    const done = await replay(entra.steps as Step[], {
      userName: `Test_User_${id}@contoso.test`,
      userNameCaps: `TEST_USER_${id}@CONTOSO.TEST`,
      newUserName: `Test_User_${id}_renamed@contoso.test`,
      externalId: `0a21f0f2-${id}`,
      groupName: `Group ${id}`,
      groupNameCaps: `GROUP ${id}`,
      groupExternalId: `8aa1a0c0-${id}`,
    });
    expect(done).toHaveLength(entra.steps.length);
  });

  it("replays Okta's SCIM 2.0 spec test and CRUD steps", async () => {
    const id = Date.now().toString(36);
    const done = await replay(okta.steps as Step[], {
      userName: `Runscope${id}Test@Atko.com`,
      userNameCaps: `RUNSCOPE${id}TEST@ATKO.COM`,
      externalId: `okta-${id}`,
      groupName: `Okta group ${id}`,
    });
    expect(done).toHaveLength(okta.steps.length);
  });

  it('discovery: ServiceProviderConfig, ResourceTypes and Schemas describe what the service does', async () => {
    const config = (await scim.get('/ServiceProviderConfig').expect(200)).body;
    expect(config).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      etag: { supported: true },
      sort: { supported: false },
      changePassword: { supported: false },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
    });
    const types = (await scim.get('/ResourceTypes').expect(200)).body;
    expect(types.Resources.map((r: { id: string; endpoint: string }) => [r.id, r.endpoint])).toEqual([
      ['User', '/Users'],
      ['Group', '/Groups'],
    ]);
    await scim.get('/ResourceTypes/User').expect(200);
    await scim.get('/ResourceTypes/Nope').expect(404);
    const schemas = (await scim.get('/Schemas').expect(200)).body;
    expect(schemas.Resources.map((s: { id: string }) => s.id)).toEqual([
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
    const user = (await scim.get('/Schemas/urn:ietf:params:scim:schemas:core:2.0:User').expect(200)).body;
    expect(user.attributes.map((a: { name: string }) => a.name)).toEqual(
      expect.arrayContaining(['userName', 'name', 'title', 'active', 'emails']),
    );
    await scim.get('/Schemas/urn:nope').expect(404);
  });

  describe('Groups', () => {
    let n = 0;
    const group = async (members: string[] = [], name = `G${Date.now().toString(36)}${n++}`) =>
      (
        await scim
          .post('/Groups', { schemas: [GROUP_SCHEMA], displayName: name, members: members.map((value) => ({ value })) })
          .expect(201)
      ).body;
    const user = async () => String((await createUser(t, org)).id);
    const memberIds = async (groupId: string) =>
      (await t.db.getRepository(UserGroupMember).findBy({ groupId: Number(groupId) }))
        .map((m) => String(m.userId))
        .sort();

    it('are the user groups of the organisation, seen on its pages; names unique case-insensitively (409 uniqueness)', async () => {
      const u = await user();
      const g = await group([u], 'Tax Team');
      const stored = await t.db.getRepository(UserGroup).findOneByOrFail({ id: Number(g.id) });
      expect(stored).toMatchObject({ organisationId: org.id, name: 'Tax Team', managedBy: 'scim' });
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const mapping = await request(t.http)
        .get(`/api/users/${u}/user-groups`)
        .set((await login(t, admin.email)).auth)
        .expect(200);
      expect(mapping.body.groups.map((x: { name: string }) => x.name)).toEqual(['Tax Team']);
      const dup = await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'TAX TEAM' }).expect(409);
      expect(dup.body).toMatchObject({ schemas: [ERROR_SCHEMA], scimType: 'uniqueness' });
      // Parallel creations of one name: one 201, the rest 409.
      const results = await Promise.all(
        Array.from({ length: 6 }, () => scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Race group' })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    });

    it('members must be users of the organisation: another organisation’s user is a 400 and nothing changes', async () => {
      const mine = await user();
      const foreign = String((await createUser(t, other)).id);
      const g = await group([mine]);
      for (const body of [
        patchOp({ op: 'add', path: 'members', value: [{ value: foreign }] }),
        patchOp({ op: 'add', path: 'members', value: [{ value: '999999999' }] }),
        patchOp({ op: 'add', path: 'members', value: [{ value: 'abc' }] }),
        patchOp({ op: 'replace', path: 'members', value: 'x' }),
      ]) {
        const res = await scim.patch(`/Groups/${g.id}`, body).expect(400);
        expect(res.body.scimType).toBe('invalidValue');
      }
      await scim
        .post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Foreign', members: [{ value: foreign }] })
        .expect(400);
      expect(await memberIds(g.id)).toEqual([mine]);
      expect(await t.db.getRepository(UserGroup).countBy({ organisationId: org.id, name: 'Foreign' })).toBe(0);
    });

    it('PATCH replace of members sets them; a removed user leaves every group', async () => {
      const [a, b, c] = [await user(), await user(), await user()];
      const g = await group([a, b]);
      await scim
        .patch(`/Groups/${g.id}`, patchOp({ op: 'Replace', path: 'members', value: [{ value: c }] }))
        .expect(200);
      expect(await memberIds(g.id)).toEqual([c]);
      await scim
        .patch(`/Groups/${g.id}`, patchOp({ op: 'Add', path: 'members', value: [{ value: a }, { value: a }] }))
        .expect(200);
      expect(await memberIds(g.id)).toEqual([a, c].sort());
      await scim.delete(`/Users/${a}`).expect(204);
      expect(await memberIds(g.id)).toEqual([c]);
    });

    it("a token never reads or changes another organisation's groups (404), nor lists them", async () => {
      const g = await group([await user()]);
      const before = await memberIds(g.id);
      await otherScim.get(`/Groups/${g.id}`).expect(404);
      await otherScim.patch(`/Groups/${g.id}`, patchOp({ op: 'replace', path: 'displayName', value: 'x' })).expect(404);
      await otherScim.put(`/Groups/${g.id}`, { schemas: [GROUP_SCHEMA], displayName: 'x' }).expect(404);
      await otherScim.delete(`/Groups/${g.id}`).expect(404);
      const listed = (await otherScim.get(`/Groups?filter=${encodeURIComponent(`id eq "${g.id}"`)}`).expect(200)).body;
      expect(listed.totalResults).toBe(0);
      expect(await memberIds(g.id)).toEqual(before);
      expect((await t.db.getRepository(UserGroup).findOneByOrFail({ id: Number(g.id) })).name).toBe(g.displayName);
    });

    it('ETags on groups; unsupported filters and bad bodies are SCIM 400s', async () => {
      const g = await group();
      const first = await scim.get(`/Groups/${g.id}`).expect(200);
      await scim.get(`/Groups/${g.id}`).set('If-None-Match', first.headers.etag).expect(304);
      await scim
        .patch(`/Groups/${g.id}`, patchOp({ op: 'replace', path: 'displayName', value: `${g.displayName}!` }))
        .expect(200);
      await scim.delete(`/Groups/${g.id}`).set('If-Match', first.headers.etag).expect(412);
      const bad = await scim.get(`/Groups?filter=${encodeURIComponent('displayName sw "G"')}`).expect(400);
      expect(bad.body.scimType).toBe('invalidFilter');
      for (const body of [
        { displayName: 'x' },
        { schemas: [GROUP_SCHEMA] },
        { schemas: [GROUP_SCHEMA], displayName: 'x'.repeat(101) },
      ])
        await scim.post('/Groups', body).expect(400);
      await scim.get('/Groups/abc').expect(404);
    });
  });
});
