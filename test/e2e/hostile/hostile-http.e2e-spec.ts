import { AddressInfo, connect } from 'node:net';
import request from 'supertest';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody, isErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { changed, Fingerprints } from '../../utils/fingerprint';
import { createTestApp, TestApp } from '../../utils/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A query parameter the OpenAPI document declares as a number: the route, the name and its schema. */
interface NumericParameter {
  path: string;
  name: string;
  schema: Json;
  /** The operation's other required query parameters with their documented examples (e.g. a period's dates). */
  base: string;
}

/**
 * The attacks on the HTTP surface the product withstands, each test naming its attack: numbers in query strings the
 * OpenAPI document bounds (huge, negative, fractional, exponent, hex, non-numeric, repeated), found by walking the
 * document so that a new route is covered without touching this file; and requests Node's HTTP server refuses before
 * the application (a request line or headers over its limit, bytes that are no HTTP), which still answer the
 * error body (docs/product-rules.md §3). Refusals change nothing. Runs on SQLite and PostgreSQL.
 */
describe('hostile HTTP: numeric query parameters and requests refused before the application', () => {
  let t: TestApp;
  let siteAdmin: LoggedIn;
  let support: LoggedIn;
  let doc: Json;
  let fingerprints: Fingerprints;

  beforeAll(async () => {
    t = await createTestApp();
    // Listening on a port of its own: the raw-socket attacks need one, and supertest then uses it.
    await new Promise<void>((resolve) => t.http.listen(0, '127.0.0.1', resolve));
    const org = await createOrganisation(t);
    siteAdmin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
    const vendor = await createOrganisation(t, { isVendor: true });
    support = await login(t, (await createUser(t, vendor, { roleId: Role.E_SUPPORT })).email);
    doc = (await request(t.http).get('/api/docs-json').expect(200)).body;
    fingerprints = new Fingerprints(t.db, t.dataDir);
  });
  afterAll(() => t?.close());

  /** A valid value of a required parameter: its documented example, or today for a date (YYYY-MM-DD). */
  function exampleOf(parameter: Json): string {
    const example = parameter.example ?? parameter.schema?.example;
    if (example !== undefined) return String(example);
    if (String(parameter.schema?.pattern ?? '').includes('\\d{4}-')) return new Date().toISOString().slice(0, 10);
    throw new Error(`no example for the required query parameter ${parameter.name}`);
  }

  /** Every query parameter of every GET the document declares as an integer or a number (or an enum of numbers). */
  function numericParameters(): NumericParameter[] {
    const out: NumericParameter[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json))
      for (const [method, op] of Object.entries(item as Json)) {
        if (method !== 'get') continue;
        const parameters: Json[] = (op as Json).parameters ?? [];
        for (const p of parameters) {
          const s = p.schema ?? {};
          const numeric =
            s.type === 'integer' ||
            s.type === 'number' ||
            (Array.isArray(s.enum) && s.enum.every((v: unknown) => typeof v === 'number'));
          if (p.in !== 'query' || !numeric) continue;
          const base = parameters
            .filter((o) => o.in === 'query' && o.required && o.name !== p.name)
            .map((o) => `${encodeURIComponent(o.name)}=${encodeURIComponent(exampleOf(o))}`)
            .map((pair) => `${pair}&`)
            .join('');
          out.push({ path, name: p.name, schema: s, base });
        }
      }
    return out;
  }

  /** The values a number must not be: each with the reason, as the test reports it. */
  function hostileValues(schema: Json): Array<[string, string]> {
    const values: Array<[string, string]> = [
      ['huge', '9999999999999999999999'],
      ['past int32', '2147483648'],
      ['negative', '-1'],
      ['negative and huge', '-9999999999999999999999'],
      ['fractional', '1.5'],
      ['exponent', '1e3'],
      ['exponent past any bound', '1e999'],
      ['hex', '0x10'],
      ['non-numeric', 'abc'],
      ['empty', ''],
      ['padded', ' 1'],
      ['Infinity', 'Infinity'],
      ['NaN', 'NaN'],
    ];
    if (typeof schema.maximum === 'number') values.push(['one past the maximum', String(schema.maximum + 1)]);
    if (typeof schema.minimum === 'number') values.push(['one below the minimum', String(schema.minimum - 1)]);
    if (Array.isArray(schema.enum)) values.push(['a number outside the enum', String(Math.max(...schema.enum) + 1)]);
    return values;
  }

  /** The caller that reaches the route's validation: the first whose plain request is answered 2xx. */
  async function callerFor(path: string, base: string): Promise<LoggedIn> {
    for (const caller of [siteAdmin, support]) {
      const res = await request(t.http).get(`${path}?${base}`).set(caller.auth);
      if (res.status < 300) return caller;
    }
    throw new Error(`no caller reaches GET ${path}`);
  }

  it('the document declares bounded numbers on the list, export and organisation routes', () => {
    const found = numericParameters();
    const names = found.map((p) => `${p.path}?${p.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        '/api/audit-events?page',
        '/api/audit-events?pageSize',
        '/api/audit-events?actorId',
        '/api/audit-events?targetId',
        '/api/audit-events/export?page',
        '/api/users?page',
        '/api/users?role',
        '/api/users?organisationId',
        '/api/users/export?page',
        '/auth/organisation?organisationId',
        '/api/domains?organisationId',
      ]),
    );
    // Every number the document declares is bounded above, as validation bounds it.
    for (const p of found)
      expect({ at: `${p.path}?${p.name}`, bounded: typeof p.schema.maximum === 'number' || !!p.schema.enum }).toEqual({
        at: `${p.path}?${p.name}`,
        bounded: true,
      });
  });

  it('every numeric query parameter of every route refuses huge, negative, fractional, exponent, hex and non-numeric values with 400, changing nothing', async () => {
    const refusedWrongly: string[] = [];
    const before = await fingerprints.full();
    for (const p of numericParameters()) {
      const caller = await callerFor(p.path, p.base);
      for (const [why, value] of [
        ...hostileValues(p.schema),
        ['repeated', '1&' + encodeURIComponent(p.name) + '=2'] as [string, string],
      ]) {
        const query = why === 'repeated' ? `${p.name}=${value}` : `${p.name}=${encodeURIComponent(value)}`;
        const res = await request(t.http).get(`${p.path}?${p.base}${query}`).set(caller.auth);
        if (res.status !== 400 || !isErrorBody(res.body, 400))
          refusedWrongly.push(
            `GET ${p.path}?${query} (${why}): ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`,
          );
      }
    }
    expect(refusedWrongly).toEqual([]);
    expect(changed(before, await fingerprints.full())).toEqual([]);
  }, 120_000);

  it('the bounds themselves are accepted: the maximum and the minimum are never a 5xx', async () => {
    for (const p of numericParameters()) {
      const caller = await callerFor(p.path, p.base);
      const edges = Array.isArray(p.schema.enum) ? p.schema.enum : [p.schema.minimum, p.schema.maximum];
      for (const value of edges.filter((v: unknown) => typeof v === 'number')) {
        const res = await request(t.http).get(`${p.path}?${p.base}${p.name}=${value}`).set(caller.auth);
        const seen = { at: `${p.path}?${p.name}=${value}`, status: res.status };
        expect({ ...seen, status: res.status < 500 ? 'below 500' : res.status }).toEqual({
          ...seen,
          status: 'below 500',
        });
        if (res.status >= 400) expectErrorBody(res, res.status);
      }
    }
  }, 120_000);

  it('an audit page far past the end (page=9999999999999999999999) is a 400 on the list and the export alike', async () => {
    for (const path of ['/api/audit-events', '/api/audit-events/export', '/api/users', '/api/users/export']) {
      const res = await request(t.http).get(`${path}?page=9999999999999999999999`).set(support.auth);
      expectErrorBody(res, 400);
      expect(res.body.message).toBe('page must be a whole number from 1 to 1000000.');
    }
  });

  describe('requests the HTTP server refuses before the application', () => {
    const longQuery = `searchText=${'a'.repeat(20_000)}`;

    it.each([
      '/api/users',
      '/api/audit-events',
      '/api/users/export',
      '/api/audit-events/export',
      '/auth/sso',
      '/auth/saml/1/slo',
    ])('a 20 KB query string on %s: 431 in the error body, as JSON', async (path) => {
      const res = await request(t.http).get(`${path}?${longQuery}`).set(siteAdmin.auth);
      expectErrorBody(res, 431);
      expect(res.body).toEqual({
        success: false,
        statusCode: 431,
        code: 'REQUEST_HEADERS_TOO_LARGE',
        message: expect.any(String),
      });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('the OpenAPI document declares the 431 on every operation, in the error body of its service', () => {
      for (const [path, item] of Object.entries(doc.paths as Json))
        for (const [method, op] of Object.entries(item as Json)) {
          const media = path.startsWith('/scim/') ? 'application/scim+json' : 'application/json';
          expect({
            at: `${method} ${path}`,
            content: Object.keys((op as Json).responses['431']?.content ?? {}),
          }).toEqual({
            at: `${method} ${path}`,
            content: [media],
          });
        }
    });

    it('20 KB of cookies: 431 in the error body', async () => {
      const res = await request(t.http)
        .get('/api/users')
        .set(siteAdmin.auth)
        .set('Cookie', `pad=${'c'.repeat(20_000)}`);
      expectErrorBody(res, 431);
    });

    it('a query string the server takes (8 KB) still reaches the application, which answers for it', async () => {
      const res = await request(t.http)
        .get(`/api/users?searchText=${'a'.repeat(8_000)}`)
        .set(siteAdmin.auth);
      expectErrorBody(res, 400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    });

    /** Writes raw bytes to the server and reads its whole answer: status, headers and parsed body. */
    function raw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
      const { port } = t.http.address() as AddressInfo;
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
        let text = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', reject);
        socket.on('close', () => {
          const [head, ...rest] = text.split('\r\n\r\n');
          const [statusLine, ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(
            lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
          );
          const bodyText = rest.join('\r\n\r\n');
          let body: unknown = bodyText;
          try {
            body = JSON.parse(bodyText);
          } catch {
            // left as text: the assertion shows it
          }
          resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
        });
      });
    }

    it.each([
      ['bytes that are no HTTP', 'GARBAGE\r\n\r\n'],
      ['a request line with spaces in its target', 'GET /api/ users HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['a Content-Length that is no number', 'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
      [
        'two Content-Lengths (request smuggling)',
        'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      ],
      ['a header name with a space', 'GET /api/users HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
      ['a control character in the path', 'GET /api/\x01users HTTP/1.1\r\nHost: x\r\n\r\n'],
    ])('%s on a raw socket: 400 MALFORMED_REQUEST in the error body, the connection closed', async (_attack, bytes) => {
      const res = await raw(bytes);
      expect(res).toEqual({
        status: 400,
        headers: expect.objectContaining({
          'content-type': 'application/json; charset=utf-8',
          connection: 'close',
        }),
        body: { success: false, statusCode: 400, code: 'MALFORMED_REQUEST', message: expect.any(String) },
      });
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(res.body)));
    });

    it('a 20 KB request line on a raw socket: 431; on a SCIM path in the SCIM error schema too', async () => {
      const plain = await raw(`GET /api/users?${longQuery} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(plain).toMatchObject({ status: 431, body: { code: 'REQUEST_HEADERS_TOO_LARGE', statusCode: 431 } });
      const scim = await raw(`GET /scim/v2/Users?filter=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(scim).toMatchObject({
        status: 431,
        headers: { 'content-type': 'application/scim+json; charset=utf-8' },
        body: {
          success: false,
          statusCode: 431,
          code: 'REQUEST_HEADERS_TOO_LARGE',
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '431',
          detail: expect.any(String),
        },
      });
    });

    it('after all of these the server answers the next request as usual', async () => {
      await raw('GARBAGE\r\n\r\n');
      await request(t.http).get('/api/health/live').expect(200);
      await request(t.http).get('/api/users').set(siteAdmin.auth).expect(200);
    });
  });
});
