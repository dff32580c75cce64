import fc from 'fast-check';
import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Role } from '../../../src/shared/roles';
import { User } from '../../../src/platform/database/entities/user.entity';
import { isErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, fromResponse, LoggedIn, PASSWORD } from '../../utils/factories';
import { changed, Fingerprint, Fingerprints } from '../../utils/fingerprint';
import { FieldInfo, listRoutes, RouteInfo } from '../../utils/routes';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * Property-based fuzzing of every route the application declares (found at run time, so a new route is
 * fuzzed without touching this file), with generated bodies, query strings, path parameters and headers,
 * called anonymously, with the service key, and signed in as E-Support, a site admin and a viewer.
 * Every answer must be below 500; every 4xx must carry the error body (docs/product-rules.md §3); and a refused request
 * (4xx) must leave every table and every file of DATA_DIR as it was. A 2xx may change things: the callers'
 * accounts are then put back and signed in again.
 *
 * Deterministic: each route, caller and case has its own seed derived from FUZZ_SEED. To replay a failure,
 * run this file again with the FUZZ_* variables the report prints (FUZZ_ROUTE, FUZZ_CALLER and FUZZ_CASE
 * narrow the run, FUZZ_PATH replays the shrunk counterexample). FUZZ_RUNS=50 searches longer; FUZZ_STATS=1
 * prints the statuses per route and caller, FUZZ_TRACE=1 every request.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** Generated requests per route for a caller the route admits (its guards let the input through). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
/** Generated requests per route for a caller the route refuses at the door (401/403 before any pipe), or for a
 * route whose handler reads no body, query, path parameter or request (its input is at most a header). */
const PROBES = Math.max(1, Math.round(RUNS / 8));
/** Per caller; grows with FUZZ_RUNS, since a timed-out test would keep sending requests into the next one. */
const TIMEOUT_MS = 60_000 + RUNS * 20_000;
const ONLY_ROUTE = process.env.FUZZ_ROUTE;
const ONLY_CALLER = process.env.FUZZ_CALLER;
const ONLY_CASE = process.env.FUZZ_CASE;
/** Requests per field with null in that field and only the required other fields, plausible. */
const NULL_RUNS = 2;
/** fast-check's path to a counterexample: with FUZZ_ROUTE, FUZZ_CALLER and FUZZ_CASE, replays just that case. */
const PATH = process.env.FUZZ_PATH;

type CallerName = 'anonymous' | 'service key' | 'E-Support' | 'Site Admin' | 'Viewer';
const CALLERS: CallerName[] = ['anonymous', 'service key', 'E-Support', 'Site Admin', 'Viewer'];
/** Who sweeps a route with null in each field: the first of these the route admits. */
const SWEEPER: CallerName[] = ['anonymous', 'service key', 'Site Admin', 'E-Support', 'Viewer'];
const SERVICE_KEY = 'test-service-api-key-0123456789';

interface SignedIn {
  role: Role;
  user: User;
  session: LoggedIn;
}

interface Generated {
  params: string[];
  query: string;
  body: { contentType: string; data: string } | null;
  /** Only for the anonymous caller: a header a stranger might send. */
  authorization: string | null;
  cookie: string | null;
}

/**
 * Routes whose refusals rightly record something for a signed-in caller: a wrong proof of identity at the step-up is
 * audited and counted by the sign-in throttle (five lock the account), by design. step-up.e2e-spec.ts covers its
 * input and refusals; fuzzing it here would lock the callers out.
 */
const rightlyRecorded = (r: RouteInfo) => r.method === 'POST' && r.path === '/auth/step-up';

describe('fuzz: every route with generated input (docs/product-rules.md §3, §5)', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  const callers = new Map<CallerName, SignedIn>();
  /** Accounts and organisations to put back after a 2xx changed them: the callers' and the victim's. */
  let originals: { users: User[]; organisations: Organisation[] };
  let victim: User;
  let org: Organisation;
  let address = 0;
  /** Each request comes from its own address, so that per-address throttling never answers for the input. */
  const nextAddress = () => {
    address++;
    return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
  };

  async function signIn(email: string): Promise<LoggedIn> {
    const res = await request(t.http)
      .post('/auth/login')
      .set('X-Forwarded-For', nextAddress())
      .send({ username: email, password: PASSWORD, acceptToS: true });
    if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return fromResponse(res);
  }

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    routes = listRoutes(t.app);
    fingerprints = new Fingerprints(t.db, t.dataDir);
    org = await createOrganisation(t, { allowedUsersNumber: 1000, maxConcurrentUsers: 1000 });
    const vendor = await createOrganisation(t, { isVendor: true });
    const make = async (role: Role, organisation: Organisation) => {
      const user = await createUser(t, organisation, { roleId: role });
      return { role, user, session: await signIn(user.email) };
    };
    callers.set('E-Support', await make(Role.E_SUPPORT, vendor));
    callers.set('Site Admin', await make(Role.SITE_ADMIN, org));
    callers.set('Viewer', await make(Role.VIEWER, org));
    // An account to act on, whose id the generators know. No e-mail of an existing account is generated: failed
    // sign-ins against a real account are throttled and reported to its owner by design (a refusal that
    // rightly changes something), and must not lock the callers out; auth.e2e-spec.ts covers them.
    victim = await createUser(t, org, { roleId: Role.ANALYST, firstName: 'Victim' });
    originals = {
      users: await t.db
        .getRepository(User)
        .findBy([...callers.values()].map((c) => ({ id: c.user.id })).concat({ id: victim.id })),
      organisations: await t.db.getRepository(Organisation).find(),
    };
  });
  afterAll(() => {
    // FUZZ_STATS=1: how the generated requests were answered, per route and caller (how deep the fuzzing got).
    if (process.env.FUZZ_STATS) for (const [k, v] of statuses) process.stderr.write(`${k} ${JSON.stringify(v)}\n`);
    return t?.close();
  });

  // ---- generators ------------------------------------------------------------------------------

  /** The signed-in caller of the batch being generated: its own id is the likeliest id (own profile, own sessions). */
  let self: number | undefined;
  const ids = () =>
    [...callers.values()].map((c) => c.user.id).concat(victim.id, org.id, self ? [self, self, self] : []);
  const NUMBERS = [0, -1, 1, 2, 3, 4, 7, 8, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, 0.5, -0.000001, 1e21];
  const TEXTS = [
    '',
    ' ',
    '0',
    '1',
    '-1',
    '1e999',
    'NaN',
    'Infinity',
    'true',
    'null',
    'undefined',
    '[object Object]',
    '123456',
    'x'.repeat(101),
    'x'.repeat(5001),
    '%',
    '_',
    '\\',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '\u0000',
    '\ud83d',
    '😀',
    'ünïcödé',
    PASSWORD,
    'New-Password-77',
    'victim@',
    'someone@example.com',
    'image/png',
    '/files/logos/0123456789abcdef0123456789abcdef.png',
    'https://example.com/logout',
    'javascript:alert(1)',
    '2026-11-23T01:00:00Z',
    '2026-13-45',
    'Organization',
    'Individual',
    'NEWS',
    'all',
    'hasAccess',
    '../../etc/passwd',
  ];
  const scalar = () =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.boolean() },
      { weight: 2, arbitrary: fc.constantFrom<unknown>(...NUMBERS) },
      { weight: 3, arbitrary: fc.constantFrom<unknown>(...TEXTS) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(...ids()) },
      { weight: 1, arbitrary: fc.integer() },
      { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
      { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
      { weight: 1, arbitrary: fc.emailAddress() },
    );
  const value = (): fc.Arbitrary<unknown> =>
    fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { weight: 6, arbitrary: scalar() },
        { weight: 1, arbitrary: fc.array(tie('v'), { maxLength: 3 }) },
        {
          weight: 1,
          arbitrary: fc.dictionary(
            fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'status')),
            tie('v'),
            { maxKeys: 3 },
          ),
        },
      ),
    })).v;
  const key = (known: string[]) =>
    fc.oneof(
      { weight: known.length ? 8 : 0, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant('') },
      {
        weight: 1,
        arbitrary: fc.constantFrom('unknownField', '__proto__', 'constructor', 'prototype', '', 'id', 'userId'),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    );
  const dtoObject = (known: string[]) =>
    fc
      .uniqueArray(fc.tuple(key(known), value()), { selector: ([k]) => k, maxLength: Math.max(4, known.length + 1) })
      .map((entries) => Object.fromEntries(entries));
  /** A value that passes the field's rules where the rules say how (enums, booleans, ids, patterns, e-mails, dates, text). */
  const plausible = (f: FieldInfo, present: 'some' | 'all' | 'required' = 'some'): fc.Arbitrary<unknown> => {
    const rule = (name: string) => f.rules.find((r) => r.name === name && !r.each);
    const each = (name: string) => f.rules.find((r) => r.name === name && r.each);
    const limit = (name: string, fallback: number) => Number(rule(name)?.constraints[0] ?? fallback);
    if (f.nested.length) return plausibleObject(f.nested, present);
    if (rule('isArray')) {
      const inList = each('isIn')?.constraints[0] as unknown[] | undefined;
      const element = inList?.length
        ? fc.constantFrom(...inList)
        : each('isInt')
          ? fc.constantFrom<unknown>(...ids(), 2, 3, 4, 5, 6, 7, 8)
          : scalar();
      return fc.array(element, { minLength: 1, maxLength: 2 });
    }
    const inList = rule('isIn')?.constraints[0] as unknown[] | undefined;
    if (inList?.length) return fc.constantFrom(...inList);
    if (rule('isBoolean')) return fc.boolean();
    if (rule('isInt') || rule('min') || rule('max'))
      return fc.oneof(
        fc.constantFrom<unknown>(...ids()),
        // Small numbers from the field's minimum up (a minimum above 10, such as a retention's 30 days, included).
        fc.integer({ min: limit('min', 0), max: Math.min(limit('max', 10), limit('min', 0) + 10) }),
      );
    if (f.rules.some((r) => /email/i.test(r.name)) || /email|username/i.test(f.name))
      return fc.emailAddress().filter((e) => e.length <= 100);
    const pattern = rule('matches')?.constraints[0];
    if (pattern instanceof RegExp) return fc.stringMatching(pattern).filter((v) => v.length <= limit('maxLength', 100));
    if (rule('isDateString'))
      return fc
        .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    if (rule('isUrl')) return fc.constantFrom('https://example.com/logout', 'http://sso.example.com/');
    const min = limit('minLength', 1);
    const max = Math.max(min, Math.min(limit('maxLength', 30), 30));
    const text = fc
      .stringMatching(/^[A-Za-z0-9][\w .@-]*[A-Za-z0-9]$/)
      .filter((v) => v.length >= min && v.length <= max);
    // The callers' password, to get past "current password" checks (the change is then undone).
    return /password/i.test(f.name) ? fc.oneof(text, fc.constantFrom(PASSWORD, 'New-Password-77')) : text;
  };
  /**
   * An object of the DTO's fields with plausible values: 'some' leaves out a few fields at random, 'all'
   * none, 'required' every optional one.
   */
  const plausibleObject = (
    fields: FieldInfo[],
    present: 'some' | 'all' | 'required' = 'some',
  ): fc.Arbitrary<Record<string, unknown>> =>
    fc
      .tuple(
        ...fields.map((f) =>
          present === 'all' || (present === 'required' && !f.optional)
            ? plausible(f, present)
            : present === 'required'
              ? fc.constant(undefined)
              : fc.option(plausible(f), { nil: undefined, freq: 6 }),
        ),
      )
      .map((values) =>
        Object.fromEntries(fields.map((f, i) => [f.name, values[i]]).filter(([, v]) => v !== undefined)),
      );
  /** Paths of every field, nested ones as `content.status`. */
  const fieldPaths = (fields: FieldInfo[], prefix = ''): string[] =>
    fields.flatMap((f) => [`${prefix}${f.name}`, ...fieldPaths(f.nested, `${prefix}${f.name}.`)]);
  const setPath = (object: Record<string, unknown>, path: string, v: unknown): Record<string, unknown> => {
    const [head, ...rest] = path.split('.');
    const inner = object[head];
    return {
      ...object,
      [head]: rest.length
        ? setPath(
            typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {},
            rest.join('.'),
            v,
          )
        : v,
    };
  };
  /** A plausible body with, most of the time, one field replaced by a hostile value. */
  const nearlyValid = (fields: FieldInfo[]) =>
    fc
      .tuple(
        plausibleObject(fields),
        fc.option(
          fc.tuple(
            fc.constantFrom(...fields.map((f) => f.name)),
            fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: value() }),
          ),
          { freq: 5 },
        ),
      )
      .map(([object, mutation]) => (mutation ? { ...object, [mutation[0]]: mutation[1] } : object));
  const encode = (s: string) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return '%ED%A0%BD'; // a lone surrogate: encoded as the (invalid) UTF-8 it would be
    }
  };
  const queryString = (known: string[]) =>
    fc
      .array(
        fc.oneof(
          {
            weight: 8,
            arbitrary: fc
              .tuple(
                key([...known, 'page', 'sig', 'expires', 'code', 'state']),
                fc.constantFrom('', '', '', '[]', '[a]', '[0]', '[][]', '[a][b]'),
                scalar(),
              )
              .map(([k, suffix, v]) => `${encode(k)}${suffix}=${encode(String(v))}`),
          },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              '%',
              '%zz',
              '&',
              '=',
              '==a',
              'a',
              '%E0%A4%A',
              'a[=1',
              '__proto__[x]=1',
              'constructor[prototype][x]=1',
            ),
          },
        ),
        { maxLength: 4 },
      )
      .map((parts) => parts.join('&'));
  const body = (route: RouteInfo) =>
    fc.oneof(
      {
        weight: route.bodyFields.length ? 6 : 0,
        arbitrary: route.bodyFields.length
          ? nearlyValid(route.bodyFields).map((v) => ({ contentType: 'application/json', data: JSON.stringify(v) }))
          : fc.constant(null),
      },
      {
        weight: 3,
        arbitrary: dtoObject(route.bodyKeys).map((v) => ({ contentType: 'application/json', data: JSON.stringify(v) })),
      },
      {
        weight: 1,
        arbitrary: fc
          .jsonValue({ maxDepth: 3 })
          .map((v) => ({ contentType: 'application/json', data: JSON.stringify(v) ?? 'null' })),
      },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 20, max: 3000 }).map((d) => ({
          contentType: 'application/json',
          data: `{"${route.bodyKeys[0] ?? 'a'}":${'['.repeat(d)}${']'.repeat(d)}}`,
        })),
      },
      {
        weight: 1,
        arbitrary: fc.string({ maxLength: 20 }).map((s) => ({ contentType: 'application/json', data: `{"${s}` })),
      },
      {
        weight: 1,
        arbitrary: queryString(route.bodyKeys).map((data) => ({
          contentType: 'application/x-www-form-urlencoded',
          data,
        })),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          contentType: fc.constantFrom(
            'text/plain',
            'application/octet-stream',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
            'application/json; charset=klingon',
            'image/png',
            'application/xml',
          ),
          data: fc.string({ maxLength: 30 }),
        }),
      },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  const param = () =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...ids().map(String)) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '0',
          '-1',
          '1.5',
          '1e999',
          '1e3',
          'abc',
          'NaN',
          'Infinity',
          '0x10',
          '99999999999999999999999',
          '9007199254740993',
          '%00',
          '%2e%2e',
          '..',
          '%ff',
          '%E0%A4%A',
          ' 1',
          'null',
          'a'.repeat(300),
          '0123456789abcdef0123456789abcdef.png',
        ),
      },
      { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encode) },
      { weight: 1, arbitrary: fc.integer().map(String) },
    );
  const generated = (route: RouteInfo, anonymous: boolean, bodies = body(route)): fc.Arbitrary<Generated> =>
    fc.record({
      params: fc.tuple(...route.params.map(() => param())) as fc.Arbitrary<string[]>,
      query: fc.oneof(fc.constant(''), queryString(route.queryKeys)),
      body: route.method === 'GET' ? fc.constant(null) : bodies,
      authorization: anonymous
        ? fc.oneof(
            { weight: 3, arbitrary: fc.constant(null) },
            { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `Bearer ${s}`) },
            { weight: 1, arbitrary: fc.constant('Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOjEsInNpZCI6MX0.') },
            { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
          )
        : fc.constant(null),
      cookie: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `refreshToken=${encode(s)}`) },
      ),
    });

  // ---- the property ------------------------------------------------------------------------------

  /** Whether the caller gets past the route's guards (then the input reaches pipes and services). */
  function admits(route: RouteInfo, caller: CallerName): boolean {
    if (route.access.kind === 'public') return true;
    if (route.access.kind === 'service') return caller === 'service key';
    // No caller here holds a provisioning token: scim-fuzz.e2e-spec.ts fuzzes those routes with one.
    if (route.access.kind === 'scim') return false;
    // Nor a sign-in step's challenge token: a route that needs one refuses them all at the door; where it is optional
    // (the first sign-in step, a password-less passkey) the input goes through as on a public route.
    if (route.access.kind === 'challenge') return route.access.optional;
    const c = callers.get(caller);
    return !!c && route.access.roles.includes(c.role);
  }

  function url(route: RouteInfo, g: Generated): string {
    let i = 0;
    const path = route.path.replace(/:\w+/g, () => g.params[i++] ?? '1');
    return g.query ? `${path}?${g.query}` : path;
  }

  function send(route: RouteInfo, caller: CallerName, g: Generated) {
    const m = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let req = request(t.http)[m](url(route, g)).set('X-Forwarded-For', nextAddress());
    const signedIn = callers.get(caller);
    if (signedIn) req = req.set(signedIn.session.auth);
    if (caller === 'service key') req = req.set('X-Api-Key', SERVICE_KEY);
    if (g.authorization !== null) req = req.set('Authorization', g.authorization);
    if (g.cookie !== null) req = req.set('Cookie', g.cookie);
    if (g.body) req = req.set('Content-Type', g.body.contentType).send(g.body.data);
    return req;
  }

  let fingerprints: Fingerprints;
  /** The fingerprint after the last request. */
  let before: Fingerprint | undefined;
  const snapshot = () => fingerprints.current();

  /** After a 2xx that changed something: the callers' accounts and organisations back as they were, and signed in. */
  async function restore(): Promise<void> {
    await t.db.getRepository(User).save(originals.users.map((u) => ({ ...u })));
    await t.db.getRepository(Organisation).save(originals.organisations.map((o) => ({ ...o })));
    for (const c of callers.values()) {
      const res = await request(t.http)
        .get('/api/users/current')
        .set('X-Forwarded-For', nextAddress())
        .set(c.session.auth);
      if (res.status !== 200) c.session = await signIn(c.user.email);
    }
    before = await snapshot();
  }

  const statuses = new Map<string, Record<number, number>>();
  /** Requests to the current route that were not refused (2xx, 3xx). */
  let accepted = 0;
  async function probe(route: RouteInfo, caller: CallerName, g: Generated): Promise<void> {
    before ??= await snapshot();
    const res = await send(route, caller, g);
    const counts = statuses.get(`${route.method} ${route.path} as ${caller}`) ?? {};
    counts[res.status] = (counts[res.status] ?? 0) + 1;
    statuses.set(`${route.method} ${route.path} as ${caller}`, counts);
    const shown = () =>
      `${route.method} ${url(route, g)} as ${caller}${g.body ? ` with ${g.body.contentType} ${g.body.data.slice(0, 300)}` : ''} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
    if (process.env.FUZZ_TRACE) process.stderr.write(`${shown()}\n`); // every request and its answer
    const after = await snapshot();
    const diff = changed(before, after);
    before = after;
    if (res.status >= 500) throw new Error(`5xx: ${shown()}`);
    if (res.status >= 400) {
      if (!isErrorBody(res.body, res.status)) throw new Error(`not the error body: ${shown()}`);
      if (diff.length) throw new Error(`a refused request changed ${diff.join(', ')}: ${shown()}`);
    } else {
      accepted++;
      if (diff.length) await restore();
    }
  }

  function seedFor(route: RouteInfo, caller: CallerName, name: string): number {
    let h = SEED | 0;
    for (const ch of `${route.method} ${route.path} ${caller} ${name}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
    return h;
  }

  it('finds the routes to fuzz', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /auth/login',
        'PUT /api/users/updateUser',
        'GET /api/users/byId/:id',
        'PUT /api/logo/upload/:token',
      ]),
    );
    expect(routes.find((r) => r.path === '/auth/login')?.bodyKeys).toEqual(
      expect.arrayContaining(['username', 'password']),
    );
  });

  /**
   * What to generate for a route and caller: 'random' requests of every kind; and, for one caller the route
   * admits, cases per field of the body ('null at userId', 'null at content.status') with the other fields
   * plausible (all of them, or only the required ones), so that null reaches the service wherever
   * validation lets it through.
   */
  function cases(
    route: RouteInfo,
    caller: CallerName,
  ): Array<{ name: string; arbitrary: fc.Arbitrary<Generated>; numRuns: number }> {
    const anonymous = caller === 'anonymous';
    const admitted = admits(route, caller);
    const out = [
      { name: 'random', arbitrary: generated(route, anonymous), numRuns: admitted && route.readsInput ? RUNS : PROBES },
    ];
    // Validation does not depend on the caller: the sweep runs once per route, as the first caller it admits.
    if (route.method === 'GET' || SWEEPER.find((c) => admits(route, c)) !== caller) return out;
    for (const path of fieldPaths(route.bodyFields)) {
      for (const present of ['all', 'required'] as const) {
        const withNull = plausibleObject(route.bodyFields, present).map((o) => ({
          contentType: 'application/json',
          data: JSON.stringify(setPath(o, path, null)),
        }));
        out.push({
          name: `null at ${path}, ${present === 'all' ? 'every other field' : 'only required fields'} given`,
          arbitrary: generated(route, anonymous, withNull),
          numRuns: present === 'all' ? 1 : NULL_RUNS,
        });
      }
    }
    return out;
  }

  for (const caller of CALLERS.filter((c) => !ONLY_CALLER || c === ONLY_CALLER)) {
    it(
      `as ${caller}: no 5xx, the error body on every 4xx, nothing changed by a refusal`,
      async () => {
        const failures: string[] = [];
        for (const route of routes.filter(
          (r) =>
            (!ONLY_ROUTE || `${r.method} ${r.path}` === ONLY_ROUTE) && !(caller !== 'anonymous' && rightlyRecorded(r)),
        )) {
          self = callers.get(caller)?.user.id;
          accepted = 0;
          for (const { name, arbitrary, numRuns } of cases(route, caller).filter(
            (c) => !ONLY_CASE || c.name === ONLY_CASE,
          )) {
            const seed = seedFor(route, caller, name);
            const details = await fc.check(
              fc.asyncProperty(arbitrary, (g) => probe(route, caller, g)),
              { seed, numRuns, ...(PATH ? { path: PATH } : {}) },
            );
            const replay = `${route.method} ${route.path} as ${caller}, ${name}: FUZZ_SEED=${SEED} FUZZ_ROUTE='${route.method} ${route.path}' FUZZ_CALLER='${caller}' FUZZ_CASE='${name}'`;
            if (details.failed) {
              // fast-check's own report, with the counterexample cut short (a deep body is kilobytes of brackets).
              const report = fc
                .defaultReportMessage(details)
                ?.replace(/[[\]]{40,}/g, (run) => `${run.slice(0, 20)}…(${run.length} brackets)…`);
              const error =
                details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
              failures.push(
                `${replay} FUZZ_PATH='${details.counterexamplePath}'\n${error.slice(0, 1500)}\n${report?.slice(0, 3000)}`,
              );
              await restore();
              accepted++;
            }
          }
          if (accepted === 0) {
            // Every request to the route was refused: a full reading of the tables must match too (total_changes()
            // sees only writes through the application's connection).
            const diff = changed(before!, await fingerprints.full());
            if (diff.length)
              failures.push(`${route.method} ${route.path} as ${caller}: refused requests changed ${diff.join(', ')}`);
          }
        }
        expect(failures).toEqual([]);
      },
      TIMEOUT_MS,
    );
  }
});
