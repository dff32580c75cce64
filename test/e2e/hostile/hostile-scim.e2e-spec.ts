import request, { Response } from 'supertest';
import { In } from 'typeorm';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { ScimToken } from '../../../src/identity/scim/entities/scim-token.entity';
import { Role } from '../../../src/shared/roles';
import { isErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { changed, Fingerprints } from '../../utils/fingerprint';
import {
  ERROR_SCHEMA,
  GROUP_SCHEMA,
  patchOp,
  PATCH_SCHEMA,
  provisioningToken,
  SCIM_TYPE,
  scimClient,
  ScimClient,
  scimUser,
} from '../../utils/identity-providers/scim';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The attacks the SCIM service (RFC 7644, docs/scim.md) withstands, each test naming its attack: a directory's token
 * reaching into another organisation, filter injection, PATCH injection, and every refusal under /scim in the SCIM
 * error schema. Every refused request is answered in that schema as application/scim+json, and changes nothing:
 * every table and file is compared before and after. Runs on SQLite and PostgreSQL.
 */
describe('hostile SCIM: the attacks the provisioning service withstands', () => {
  let t: TestApp;
  let orgA: Organisation;
  let orgB: Organisation;
  let a: ScimClient;
  let fingerprints: Fingerprints;
  /** Organisation B's user and group, which A's token must never reach. */
  let bUser: { id: string; userName: string; externalId: string };
  let bGroup: { id: string; displayName: string; externalId: string };
  /** Organisation A's own user and group, the targets of the injections. */
  let aUser: { id: string; userName: string };
  let aGroup: { id: string };

  beforeAll(async () => {
    t = await createTestApp();
    orgA = await createOrganisation(t);
    orgB = await createOrganisation(t);
    a = scimClient(t, (await provisioningToken(t, orgA)).token);
    const b = scimClient(t, (await provisioningToken(t, orgB)).token);
    const bCreated = (
      await b.post('/Users', scimUser('b-person@b-org.test', { externalId: 'ext-b-person' })).expect(201)
    ).body;
    bUser = { id: bCreated.id, userName: bCreated.userName, externalId: 'ext-b-person' };
    const bg = await b
      .post('/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: 'B finance',
        externalId: 'ext-b-group',
        members: [{ value: bUser.id }],
      })
      .expect(201);
    bGroup = { id: bg.body.id, displayName: 'B finance', externalId: 'ext-b-group' };
    const aCreated = (await a.post('/Users', scimUser('a-person@a-org.test')).expect(201)).body;
    aUser = { id: aCreated.id, userName: aCreated.userName };
    aGroup = (
      await a
        .post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'A team', members: [{ value: aUser.id }] })
        .expect(201)
    ).body;
    // Each token's use already recorded for the run: a refused call then writes nothing at all.
    await t.db
      .getRepository(ScimToken)
      .update({ organisationId: In([orgA.id, orgB.id]) }, { lastUsedAt: new Date(Date.now() + 3_600_000) });
    fingerprints = new Fingerprints(t.db, t.dataDir);
  });
  afterAll(() => t?.close());

  /** RFC 7644 §3.12's error (and the error body (docs/product-rules.md §3)), as application/scim+json. */
  function expectScimError(res: Response, status: number, scimType?: string): void {
    const seen = { status: res.status, type: res.headers['content-type'], body: res.body };
    expect(seen).toEqual({
      status,
      type: expect.stringMatching(/^application\/scim\+json/),
      body: expect.objectContaining({
        schemas: [ERROR_SCHEMA],
        status: String(status),
        detail: expect.any(String),
        ...(scimType ? { scimType } : {}),
      }),
    });
    expect(isErrorBody(res.body, status)).toBe(true);
  }

  /** Runs the attack and asserts that no table or file changed. */
  async function unchanged<T>(attack: () => Promise<T>): Promise<T> {
    const before = await fingerprints.full();
    const result = await attack();
    expect(changed(before, await fingerprints.full())).toEqual([]);
    return result;
  }

  const filter = (client: ScimClient, kind: 'Users' | 'Groups', text: string) =>
    client.get(`/${kind}?filter=${encodeURIComponent(text)}`);

  describe("a token of organisation A against organisation B's users and groups", () => {
    it("reads B's user and group by id: 404, as for an id that does not exist", async () => {
      await unchanged(async () => {
        expectScimError(await a.get(`/Users/${bUser.id}`), 404);
        expectScimError(await a.get(`/Groups/${bGroup.id}`), 404);
        expect((await a.get(`/Users/${bUser.id}`)).body.detail).toBe(
          (await a.get('/Users/2147483647')).body.detail.replace('2147483647', bUser.id),
        );
      });
    });

    it("finds B's user by filter on id, userName, externalId or displayName: no result", async () => {
      await unchanged(async () => {
        for (const f of [
          `id eq "${bUser.id}"`,
          `userName eq "${bUser.userName}"`,
          `userName eq "${bUser.userName.toUpperCase()}"`,
          `externalId eq "${bUser.externalId}"`,
          `userName eq "${bUser.userName}" and externalId eq "${bUser.externalId}"`,
        ]) {
          const res = await filter(a, 'Users', f).expect(200);
          expect({ f, total: res.body.totalResults, resources: res.body.Resources }).toEqual({
            f,
            total: 0,
            resources: [],
          });
        }
        for (const f of [
          `id eq "${bGroup.id}"`,
          `displayName eq "${bGroup.displayName}"`,
          `externalId eq "${bGroup.externalId}"`,
        ])
          expect({ f, total: (await filter(a, 'Groups', f).expect(200)).body.totalResults }).toEqual({ f, total: 0 });
      });
    });

    it('lists and pages: only A’s own users and groups, whatever startIndex and count', async () => {
      await unchanged(async () => {
        for (const kind of ['Users', 'Groups'] as const)
          for (const q of ['', '?startIndex=1&count=1000', '?startIndex=0&count=2', '?count=-5'])
            for (const r of (await a.get(`/${kind}${q}`).expect(200)).body.Resources as Array<{ id: string }>)
              expect([bUser.id, bGroup.id]).not.toContain(r.id);
      });
    });

    it("patches, replaces and deletes B's user by id: 404 and B's user unchanged", async () => {
      await unchanged(async () => {
        expectScimError(
          await a.patch(`/Users/${bUser.id}`, patchOp({ op: 'replace', path: 'active', value: false })),
          404,
        );
        expectScimError(
          await a.patch(`/Users/${bUser.id}`, patchOp({ op: 'replace', value: { userName: 'taken@a-org.test' } })),
          404,
        );
        expectScimError(await a.put(`/Users/${bUser.id}`, scimUser(bUser.userName, { active: false })), 404);
        expectScimError(await a.delete(`/Users/${bUser.id}`), 404);
        expectScimError(await a.delete(`/Users/${bUser.id}`).set('If-Match', '*'), 404);
      });
    });

    it("patches, replaces and deletes B's group by id: 404 and B's group unchanged", async () => {
      await unchanged(async () => {
        expectScimError(
          await a.patch(`/Groups/${bGroup.id}`, patchOp({ op: 'remove', path: `members[value eq "${bUser.id}"]` })),
          404,
        );
        expectScimError(
          await a.patch(`/Groups/${bGroup.id}`, patchOp({ op: 'add', path: 'members', value: [{ value: aUser.id }] })),
          404,
        );
        expectScimError(await a.put(`/Groups/${bGroup.id}`, { schemas: [GROUP_SCHEMA], displayName: 'Mine' }), 404);
        expectScimError(await a.delete(`/Groups/${bGroup.id}`), 404);
      });
    });

    it("points group membership at B's user (create, add, replace, put): 400 invalidValue, nothing joined", async () => {
      await unchanged(async () => {
        const foreign = [{ value: bUser.id }];
        expectScimError(
          await a.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Stolen', members: foreign }),
          400,
          'invalidValue',
        );
        for (const op of ['add', 'replace'])
          expectScimError(
            await a.patch(`/Groups/${aGroup.id}`, patchOp({ op, path: 'members', value: foreign })),
            400,
            'invalidValue',
          );
        expectScimError(
          await a.patch(`/Groups/${aGroup.id}`, patchOp({ op: 'add', value: { members: foreign } })),
          400,
          'invalidValue',
        );
        expectScimError(
          await a.put(`/Groups/${aGroup.id}`, { schemas: [GROUP_SCHEMA], displayName: 'A team', members: foreign }),
          400,
          'invalidValue',
        );
      });
    });

    it("fires 30 changes at B's user and group at once (PATCH, PUT, DELETE in parallel): every one 404, nothing changed", async () => {
      await unchanged(async () => {
        const attacks = Array.from({ length: 5 }, () => [
          a.patch(`/Users/${bUser.id}`, patchOp({ op: 'replace', path: 'active', value: false })),
          a.put(`/Users/${bUser.id}`, scimUser(bUser.userName, { active: false })),
          a.delete(`/Users/${bUser.id}`),
          a.patch(`/Groups/${bGroup.id}`, patchOp({ op: 'replace', path: 'displayName', value: 'Taken' })),
          a.put(`/Groups/${bGroup.id}`, { schemas: [GROUP_SCHEMA], displayName: 'Taken' }),
          a.delete(`/Groups/${bGroup.id}`),
        ]).flat();
        for (const res of await Promise.all(attacks)) expectScimError(res, 404);
      });
    });

    it("presents B's site admin's access token, or no token, instead of a provisioning token: 401", async () => {
      const admin = await createUser(t, orgB, { roleId: Role.SITE_ADMIN });
      const session = await login(t, admin.email);
      await unchanged(async () => {
        for (const auth of [session.auth, { Authorization: 'Bearer not-a-token' }, {}])
          expectScimError(await request(t.http).get(`/scim/v2/Users/${bUser.id}`).set(auth), 401);
      });
    });
  });

  describe('filter injection', () => {
    it.each([
      ['SQL after the filter', 'userName eq "x" or 1=1'],
      ['an always-true comparison', 'userName eq "x" or id pr'],
      ['an unbalanced quote', 'userName eq "a-person@a-org.test'],
      ['single quotes', "userName eq 'a-person@a-org.test'"],
      ['an unbalanced parenthesis', '(userName eq "x"'],
      ['a closing parenthesis too many', 'userName eq "x")'],
      ['a dangling operator', 'userName eq "x" and'],
      ['an unknown operator', 'userName regex ".*"'],
      ['a supported attribute with an unsupported operator', 'userName co "a"'],
      ['an unknown attribute', 'password eq "x"'],
      ['an attribute of another schema', 'urn:evil:schema:userName eq "x"'],
      ['a value filter', 'emails[value eq "x"]'],
      ['negation', 'not (userName eq "x")'],
      ['presence', 'userName pr'],
      ['a number for text', 'userName eq 1'],
      ['a huge filter', `userName eq "${'a'.repeat(5_000)}"`],
      ['deep nesting', `${'('.repeat(500)}userName eq "x"${')'.repeat(500)}`],
      ['a semicolon statement', 'userName eq "x"; DROP TABLE users'],
    ])('%s: 400 invalidFilter, nothing changed', async (_attack, text) => {
      await unchanged(async () => {
        for (const kind of ['Users', 'Groups'] as const)
          expectScimError(await filter(a, kind, text), 400, 'invalidFilter');
      });
    });

    it.each([
      ['SQL in the quoted value', `userName eq "' OR '1'='1"`],
      ['SQL comment in the quoted value', `userName eq "a-person@a-org.test'--"`],
      ['an escaped quote closing the value early', 'userName eq "x\\" or \\"1\\" eq \\"1"'],
      ['LIKE wildcards', 'userName eq "%"'],
      ['a LIKE single-character wildcard', 'userName eq "a-person@a-org.tes_"'],
      ['a backslash', 'userName eq "\\\\"'],
      ['a NUL character', 'userName eq "a-person@a-org.test\u0000"'],
    ])('%s is a literal value matching nothing (200, empty), or a 400, never more', async (_attack, text) => {
      await unchanged(async () => {
        for (const kind of ['Users', 'Groups'] as const) {
          const res = await filter(a, kind, text.replace('userName', kind === 'Users' ? 'userName' : 'displayName'));
          if (res.status === 200) expect(res.body.totalResults).toBe(0);
          else expectScimError(res, 400);
        }
      });
    });

    it('a filter given twice: 400', async () => {
      await unchanged(async () => {
        expectScimError(await a.get('/Users?filter=id%20eq%20%221%22&filter=id%20eq%20%222%22'), 400);
      });
    });

    it('a filter longer than the HTTP server takes (20 KB): 431 in the SCIM error schema', async () => {
      await unchanged(async () => {
        const res = await filter(a, 'Users', `userName eq "${'a'.repeat(20_000)}"`);
        expectScimError(res, 431);
        expect(res.body.code).toBe('REQUEST_HEADERS_TOO_LARGE');
      });
    });

    it.each(['99999999999', '2147483648', '1e3', '1.5', 'abc', '', '0x10'])(
      'paging with startIndex or count %p: 400 invalidValue',
      async (value) => {
        await unchanged(async () => {
          for (const name of ['startIndex', 'count'])
            expectScimError(await a.get(`/Users?${name}=${encodeURIComponent(value)}`), 400, 'invalidValue');
        });
      },
    );
  });

  describe('PATCH injection', () => {
    const userPath = () => `/Users/${aUser.id}`;
    const groupPath = () => `/Groups/${aGroup.id}`;

    it.each([
      ['an unbalanced bracket', 'emails[type eq "work"'],
      ['a bracket with no filter', 'emails[].value'],
      ['a stray closing bracket', 'title]'],
      ['a broken value filter', 'emails[type eq ].value'],
      ['a sub-attribute too deep', 'name.givenName.first'],
      ['a name that is no attribute name', '1title'],
      ['SQL in the path', 'title; DROP TABLE users'],
      ['a quote in the path', 'title"'],
      ['prototype pollution through __proto__', '__proto__'],
      ['prototype pollution through a nested __proto__', 'name.__proto__'],
      ['prototype pollution through constructor.prototype', 'name.constructor.prototype'],
      ['prototype pollution of Object.prototype through __proto__', 'name.__proto__.polluted'],
      ['prototype pollution of Object.prototype through constructor', 'name.constructor.prototype.polluted'],
      ['an empty path', ''],
      ['an enormous path', `name.${'x'.repeat(5000)}`],
    ])('a user PATCH with %s: 400 invalidPath, nothing changed', async (_attack, path) => {
      await unchanged(async () => {
        expectScimError(await a.patch(userPath(), patchOp({ op: 'replace', path, value: 'x' })), 400, 'invalidPath');
      });
    });

    it.each([
      ['a bad escape before the closing quote', 'members[value eq "\\"]'],
      ['a lone backslash pair', 'members[value eq "\\\\"]'],
      ['an unterminated value', 'members[value eq "1]'],
      ['an unbalanced bracket', 'members[value eq "1"'],
      ['an injected or', 'members[value eq "1"] or 1 eq 1'],
      ['a number for the member id', 'members[value eq 1]'],
    ])('a group member removal with %s: 400 in the SCIM schema, nothing changed', async (_attack, path) => {
      await unchanged(async () => {
        const res = await a.patch(groupPath(), patchOp({ op: 'remove', path }));
        expectScimError(res, 400);
        expect(['invalidPath', 'invalidValue']).toContain(res.body.scimType);
      });
    });

    it.each([
      ['an unknown escape', 'members[value eq "\\x"]'],
      ['a short unicode escape', 'members[value eq "\\u12"]'],
      ['an escaped quote after the id', 'members[value eq "{id}\\""]'],
    ])(
      'a group member removal with %s: the text is read literally, no member has that id, nothing changed',
      async (_attack, path) => {
        await unchanged(async () => {
          const res = await a.patch(groupPath(), patchOp({ op: 'remove', path: path.replace('{id}', aUser.id) }));
          expect({ status: res.status, members: res.body.members }).toEqual({
            status: 200,
            members: [expect.objectContaining({ value: aUser.id })],
          });
        });
      },
    );

    it('prototype pollution through paths and the keys of values: 400, nothing changed, no object polluted', async () => {
      const raw = (operations: string) =>
        request(t.http)
          .patch(`/scim/v2${userPath()}`)
          .set(a.auth)
          .set('Content-Type', SCIM_TYPE)
          .send(`{"schemas":["${PATCH_SCHEMA}"],"Operations":${operations}}`);
      await unchanged(async () => {
        for (const operations of [
          '[{"op":"replace","value":{"__proto__":{"polluted":"yes"}}}]',
          '[{"op":"add","value":{"constructor":{"prototype":{"polluted":"yes"}}}}]',
          '[{"op":"replace","path":"name","value":{"__proto__":{"polluted":"yes"},"givenName":"Given"}}]',
          '[{"op":"replace","path":"name","value":{"constructor":{"prototype":{"polluted":"yes"}}}}]',
          '{"__proto__":[{"op":"replace","path":"title","value":"x"}]}',
          '[{"op":"add","path":"name.__proto__.polluted","value":"yes"}]',
          '[{"op":"add","path":"name.constructor.prototype.polluted","value":"yes"}]',
          '[{"op":"add","value":{"name":{"__proto__":{"polluted":"yes"}}}}]',
          '[{"op":"add","path":"name.constructor","value":{"prototype":{"polluted":"yes"}}}]',
        ]) {
          expectScimError(await raw(operations), 400);
          expect({ operations, polluted: ({} as Record<string, unknown>).polluted }).toEqual({
            operations,
            polluted: undefined,
          });
        }
      });
    });

    it('enormous values: a long title, a huge display name, too many operations, a body over the limit, deep nesting', async () => {
      await unchanged(async () => {
        expectScimError(
          await a.patch(userPath(), patchOp({ op: 'replace', path: 'title', value: 'x'.repeat(5000) })),
          400,
          'invalidValue',
        );
        expectScimError(
          await a.patch(groupPath(), patchOp({ op: 'replace', path: 'displayName', value: 'x'.repeat(5000) })),
          400,
          'invalidValue',
        );
        const many = Array.from({ length: 1001 }, () => ({ op: 'replace', path: 'title', value: 'x' }));
        expectScimError(await a.patch(userPath(), patchOp(...many)), 400);
        expectScimError(
          await a.patch(userPath(), patchOp({ op: 'replace', path: 'title', value: 'x'.repeat(200 * 1024) })),
          413,
        );
        const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
        const res = await request(t.http)
          .patch(`/scim/v2${userPath()}`)
          .set(a.auth)
          .set('Content-Type', SCIM_TYPE)
          .send(`{"schemas":["${PATCH_SCHEMA}"],"Operations":[{"op":"replace","path":"title","value":${deep}}]}`);
        expectScimError(res, 400);
      });
    });
  });

  describe('every refusal under /scim in the SCIM error schema', () => {
    it.each([
      ['put', '/scim/v2/Users'],
      ['post', '/scim/v2/ServiceProviderConfig'],
      ['delete', '/scim/v2/Schemas'],
      ['patch', '/scim/v2/ResourceTypes'],
      ['post', '/scim/v2/Users/1'],
      ['put', '/SCIM/V2/USERS'],
    ] as const)(
      'a method the path does not take (%s %s): 405 with Allow, with or without a token',
      async (method, path) => {
        await unchanged(async () => {
          for (const auth of [a.auth, {}]) {
            const res = await request(t.http)[method](path).set(auth).set('Content-Type', SCIM_TYPE).send('{}');
            expectScimError(res, 405);
            expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
            expect(res.headers.allow).toEqual(expect.stringContaining('OPTIONS'));
          }
        });
      },
    );

    it.each(['/scim/v2/Nothing', '/scim/v2/Users/1/extra', '/scim/v2', '/scim/v1/Users', '/scim'])(
      'a path the service does not have (%s): 404, with or without a token',
      async (path) => {
        await unchanged(async () => {
          for (const auth of [a.auth, {}]) expectScimError(await request(t.http).get(path).set(auth), 404);
        });
      },
    );

    it('a body that is no JSON, or JSON of the wrong shape: 400 invalidSyntax', async () => {
      await unchanged(async () => {
        for (const body of ['{', 'null', '[]', '"text"'])
          expectScimError(
            await request(t.http).post('/scim/v2/Users').set(a.auth).set('Content-Type', SCIM_TYPE).send(body),
            400,
            'invalidSyntax',
          );
      });
    });
  });
});
