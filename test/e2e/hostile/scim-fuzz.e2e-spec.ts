import fc from 'fast-check';
import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { ScimToken } from '../../../src/identity/scim/entities/scim-token.entity';
import { Role } from '../../../src/shared/roles';
import { isErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser } from '../../utils/factories';
import { changed, Fingerprints } from '../../utils/fingerprint';
import {
  ENTERPRISE,
  ERROR_SCHEMA,
  GROUP_SCHEMA,
  PATCH_SCHEMA,
  provisioningToken,
  SCIM_TYPE,
  USER_SCHEMA,
} from '../../utils/identity-providers/scim';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * Property-based fuzzing of the SCIM endpoints with a valid provisioning token (the general fuzz, fuzz.e2e-spec.ts,
 * has no token): generated bodies (any JSON, valid resources with one attribute broken, PATCH operations of any
 * shape, text that is no JSON) and query strings. Every answer is below 500; every 4xx is a SCIM error (schemas,
 * status, detail) that is also the error body (docs/product-rules.md §3), as application/scim+json; and a refused request leaves every
 * table and file as it was. Deterministic per FUZZ_SEED; FUZZ_RUNS sets the requests per endpoint.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

describe('fuzz: the SCIM endpoints with bad bodies and queries', () => {
  let t: TestApp;
  let org: Organisation;
  let token: string;
  let fingerprints: Fingerprints;
  let userId: number;
  let groupId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t, { allowedUsersNumber: 10_000 });
    await createUser(t, org, { roleId: Role.SITE_ADMIN });
    token = (await provisioningToken(t, org)).token;
    userId = (await createUser(t, org, { managedBy: 'scim', externalId: 'ext-fuzz' })).id;
    const g = await request(t.http)
      .post('/scim/v2/Groups')
      .set('Authorization', `Bearer ${token}`)
      .send({ schemas: [GROUP_SCHEMA], displayName: 'Fuzzed', members: [{ value: String(userId) }] })
      .expect(201);
    groupId = g.body.id;
    // A use already recorded this minute, and for the run: a refused call then writes nothing at all.
    await t.db
      .getRepository(ScimToken)
      .update({ organisationId: org.id }, { lastUsedAt: new Date(Date.now() + 3_600_000) });
    fingerprints = new Fingerprints(t.db, t.dataDir);
  }, 120_000);
  afterAll(() => t?.close());

  const text = () =>
    fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom(
        '',
        ' ',
        'True',
        'False',
        'null',
        '😀',
        '\u0000',
        'x'.repeat(300),
        'a@b',
        'Ünï@cödé.test',
        '"',
        '\\',
      ),
    );
  const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), text(), fc.constant(undefined));
  const brokenUser = fc
    .record({
      key: fc.constantFrom(
        'userName',
        'name',
        'active',
        'externalId',
        'title',
        ENTERPRISE,
        'schemas',
        'emails',
        'roles',
        'name.givenName',
      ),
      value: anyValue,
    })
    .map(({ key, value }) => {
      const body: Record<string, unknown> = {
        schemas: [USER_SCHEMA],
        userName: 'fuzz-target@acme.test',
        name: { givenName: 'G', familyName: 'F' },
        active: true,
      };
      if (key === 'name.givenName') body.name = { givenName: value };
      else body[key] = value;
      return body;
    });
  const operation = fc.record(
    {
      op: fc.oneof(fc.constantFrom('add', 'Replace', 'remove', 'REMOVE', 'move', ''), text()),
      path: fc.oneof(
        fc.constantFrom(
          'active',
          'userName',
          'title',
          'name.givenName',
          'members',
          'members[value eq "1"]',
          'displayName',
          'roles',
          `${ENTERPRISE}:department`,
          'emails[type eq "work"].value',
          '[',
          'a.b.c',
        ),
        text(),
      ),
      value: anyValue,
    },
    { requiredKeys: [] },
  );
  const patchBody = fc.oneof(
    fc.record({ schemas: fc.constant([PATCH_SCHEMA]), Operations: fc.array(operation, { maxLength: 3 }) }),
    fc.record({ schemas: fc.oneof(anyValue, fc.constant([PATCH_SCHEMA])), Operations: anyValue }),
  );
  const brokenGroup = fc.record(
    {
      schemas: fc.oneof(fc.constant([GROUP_SCHEMA]), anyValue),
      displayName: fc.oneof(anyValue, fc.constant('x'.repeat(101))),
      members: fc.oneof(
        anyValue,
        fc.array(fc.record({ value: fc.oneof(text(), fc.constant('999999')) }), { maxLength: 2 }),
      ),
    },
    { requiredKeys: [] },
  );
  const raw = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom('{', '[1,', '{"schemas":', 'null', '"x"', '1e999'),
  );

  type Body = { json: unknown } | { raw: string };
  const bodies = (structured: fc.Arbitrary<unknown>): fc.Arbitrary<Body> =>
    fc.oneof(
      { weight: 6, arbitrary: structured.map((json) => ({ json })) },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((json) => ({ json })) },
      { weight: 1, arbitrary: raw.map((r) => ({ raw: r })) },
    );

  async function check(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: Body) {
    const before = await fingerprints.current();
    let req = request(t.http)[method](path).set('Authorization', `Bearer ${token}`);
    if (body)
      req = req.set('Content-Type', SCIM_TYPE).send('raw' in body ? body.raw : JSON.stringify(body.json ?? null));
    const res = await req;
    const seen = { method, path, body: body && ('raw' in body ? body.raw : body.json), status: res.status };
    expect({ ...seen, status: res.status < 500 ? 'below 500' : res.status }).toEqual({ ...seen, status: 'below 500' });
    if (res.status >= 400) {
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({
        schemas: [ERROR_SCHEMA],
        status: String(res.status),
        detail: expect.any(String),
      });
      expect(isErrorBody(res.body, res.status)).toBe(true);
      expect({ ...seen, changed: changed(before, await fingerprints.current()) }).toEqual({ ...seen, changed: [] });
    }
    return res.status;
  }

  const property = (name: string, arb: fc.Arbitrary<Body>, method: 'post' | 'put' | 'patch', path: () => string) =>
    it(`${method.toUpperCase()} ${name}: below 500, 4xx SCIM errors change nothing`, async () => {
      const statuses: number[] = [];
      await fc.assert(
        fc.asyncProperty(arb, async (body) => {
          statuses.push(await check(method, path(), body));
        }),
        { seed: SEED, numRuns: RUNS },
      );
      // The generators reach past the parsing: most inputs are refused, each with a SCIM error.
      expect(statuses.filter((s) => s >= 400 && s < 500).length).toBeGreaterThan(RUNS / 2);
    }, 120_000);

  property('/Users', bodies(brokenUser), 'post', () => '/scim/v2/Users');
  property('/Users/{id}', bodies(brokenUser), 'put', () => `/scim/v2/Users/${userId}`);
  property('/Users/{id}', bodies(patchBody), 'patch', () => `/scim/v2/Users/${userId}`);
  property('/Groups', bodies(brokenGroup), 'post', () => '/scim/v2/Groups');
  property('/Groups/{id}', bodies(brokenGroup), 'put', () => `/scim/v2/Groups/${groupId}`);
  property('/Groups/{id}', bodies(patchBody), 'patch', () => `/scim/v2/Groups/${groupId}`);

  it('GET and DELETE with generated queries and ids: below 500, 4xx SCIM errors change nothing', async () => {
    const param = fc.constantFrom('filter', 'startIndex', 'count', 'attributes', 'excludedAttributes', 'sortBy', 'x');
    const value = fc.oneof(
      text(),
      fc.constantFrom(
        'userName eq "a@b.c"',
        'userName eq',
        'displayName co "x"',
        'id eq "abc"',
        '((',
        '-1',
        '0',
        '99999999999',
        'members',
      ),
    );
    const query = fc
      .array(fc.tuple(param, value), { maxLength: 3 })
      .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
    const id = fc.oneof(
      text().map(encodeURIComponent),
      fc.constantFrom('0', '-1', '99999999999', '2147483648', '1e3', '%00'),
    );
    await fc.assert(
      fc.asyncProperty(query, id, fc.constantFrom('Users', 'Groups'), async (q, i, kind) => {
        await check('get', `/scim/v2/${kind}?${q}`);
        await check('get', `/scim/v2/${kind}/${i || 'x'}?${q}`);
        await check('delete', `/scim/v2/${kind}/${i || 'x'}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 180_000);
});
