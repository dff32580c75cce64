import type { OpenAPIObject } from '@nestjs/swagger';
import express from 'express';
import request from 'supertest';
import { ResponseValidator, takeViolations } from '../../utils/openapi-validation';
import { listRoutes } from '../../utils/routes';
import { createTestApp, TestApp } from '../../utils/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The OpenAPI document is generated from the code and is the contract (docs/api.md). */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await request(t.http).get('/api/docs-json').expect(200)).body;
  });
  afterAll(() => t.close());

  const op = (method: string, path: string): Json => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`no ${method} ${path} in the document`);
    return found;
  };
  const schema = (name: string): Json => doc.components.schemas[name];

  it('has every route of every controller, each with a success answer, errors in the error body, tags and a summary', () => {
    const routes = listRoutes(t.app).filter((r) => !r.path.startsWith('/api/metrics'));
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      const o = op(route.method.toLowerCase(), route.path.replace(/:(\w+)/g, '{$1}'));
      const statuses = Object.keys(o.responses);
      const where = `${route.method} ${route.path}`;
      expect({ where, success: statuses.some((s) => /^[23]/.test(s)) }).toEqual({ where, success: true });
      // SCIM (RFC 7644) refuses in its own error schema and media type; every other route in the error body.
      const [media, error] = route.path.startsWith('/scim/')
        ? ['application/scim+json', 'ScimErrorDto']
        : ['application/json', 'ErrorBody'];
      for (const status of statuses.filter((s) => /^[45]/.test(s)))
        expect({ where, status, content: o.responses[status].content }).toEqual({
          where,
          status,
          content: { [media]: { schema: { $ref: `#/components/schemas/${error}` } } },
        });
      expect(statuses).toEqual(expect.arrayContaining(['429', '500']));
      expect({ where, tags: o.tags?.length > 0, summary: typeof o.summary }).toEqual({
        where,
        tags: true,
        summary: 'string',
      });
      for (const name of route.params)
        expect(o.parameters).toEqual(
          expect.arrayContaining([expect.objectContaining({ name, in: 'path', required: true })]),
        );
    }
    expect(schema('ErrorBody').required).toEqual(['success', 'statusCode', 'code', 'message']);
  });

  it('declares the path parameters and the bodies the explorer missed', () => {
    for (const [method, path, name] of [
      ['post', '/api/notifications/{id}/dismiss', 'id'],
      ['post', '/api/notifications/{id}/read', 'id'],
      ['get', '/api/processedData/processLogUrl/{portfolioId}', 'portfolioId'],
    ])
      expect(op(method, path).parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name, in: 'path', required: true })]),
      );
    const upload = op('put', '/api/logo/upload/{token}');
    expect(Object.keys(upload.requestBody.content)).toEqual(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
    expect(upload.requestBody.content['image/png'].schema).toEqual(expect.objectContaining({ format: 'binary' }));
  });

  it('carries the limits the DTOs enforce (docs/product-rules.md §5) and bounds every array', () => {
    const login = schema('LoginDto').properties;
    expect(login.username).toEqual(expect.objectContaining({ maxLength: 100, format: 'email' }));
    expect(login.password).toEqual(expect.objectContaining({ maxLength: 50 }));
    expect(login.mfaToken).toEqual(expect.objectContaining({ pattern: '^\\d{6}$' }));
    expect(schema('LoginDto').additionalProperties).toBe(false);
    expect(schema('AddUserDto').properties.userRoleIds).toEqual(expect.objectContaining({ maxItems: 2 }));
    expect(schema('UpdateRoleDto').properties.newUserRoleIds).toEqual(expect.objectContaining({ maxItems: 2 }));
    const unbounded: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const n = node as Json;
      if (n.type === 'array' && n.maxItems === undefined) unbounded.push(at);
      const bounded = ['maxLength', 'pattern', 'enum', 'const', 'format'].some((k) => n[k] !== undefined);
      if (n.type === 'string' && !bounded) unbounded.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    for (const [name, s] of Object.entries(doc.components.schemas as Json))
      if (/Dto$/.test(name)) walk(s, `requestBody ${name}`);
    expect(unbounded).toEqual([]);
  });

  it('names the credential of every operation', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(
      ['apiKey', 'bearer', 'challenge', 'provisioning', 'refreshCookie', 'service'].sort(),
    );
    expect(op('post', '/auth/login').security).toEqual([{}, { challenge: [] }]);
    expect(op('post', '/auth/change-password').security).toEqual([{ challenge: [] }]);
    expect(op('post', '/refresh').security).toEqual([{ refreshCookie: [] }]);
    expect(op('post', '/api/notifications').security).toEqual([{ service: [] }]);
    // An organisation API key may call it with its scope, named as an extension (docs/api-keys.md).
    expect(op('get', '/api/users').security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(op('get', '/api/users')['x-api-key-scope']).toBe('users:read');
    expect(op('get', '/api/users/current').security).toEqual([{ bearer: [] }]);
    expect(op('get', '/api/app-info').security).toEqual([]);
  });

  it('gives each answer its content type: JSON, CSV, images, files', () => {
    expect(Object.keys(op('get', '/api/users/export').responses['200'].content)).toEqual(['text/csv']);
    expect(Object.keys(op('get', '/api/audit-events/export').responses['200'].content)).toEqual(['text/csv']);
    // A refusal of a CSV export is the error body, as JSON.
    expect(Object.keys(op('get', '/api/users/export').responses['403'].content)).toEqual(['application/json']);
    expect(Object.keys(op('get', '/files/logos/{name}').responses['200'].content)).toContain('image/png');
    expect(op('get', '/api/users/current').responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CurrentUserInfo',
    });
    expect(schema('CurrentUserInfo').required).toEqual(expect.arrayContaining(['email', 'roles', 'isMFAEnabled']));
  });
});

/** The harness of every e2e test (test-app.ts): an answer the document does not allow fails the test that got it. */
describe('the e2e response validator', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/thing/{id}': {
        get: {
          operationId: 'Things_read',
          responses: {
            '200': {
              description: '',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { name: { type: 'string' } },
                    required: ['name'],
                    additionalProperties: false,
                  },
                },
              },
            },
          },
        },
      },
      '/new-route': { post: { operationId: 'Things_create', responses: {} } },
      '/standard/{id}': {
        get: {
          operationId: 'Standard_read',
          responses: {
            '200': {
              description: '',
              content: {
                'application/scim+json': {
                  schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
    },
    components: { schemas: { ErrorBody: { type: 'object', required: ['success', 'statusCode', 'code', 'message'] } } },
  } as unknown as OpenAPIObject;

  const server = (answer: (res: express.Response) => void) => {
    const validator = new ResponseValidator();
    validator.use(document);
    const app = express();
    app.use(validator.middleware);
    app.all('/{*any}', (_req, res) => answer(res));
    return app;
  };

  afterEach(() => takeViolations());

  it('passes an answer that matches, and reports one that does not, a drifted field and an undocumented status', async () => {
    await request(server((res) => res.json({ name: 'x' })))
      .get('/thing/1')
      .expect(200);
    expect(takeViolations()).toEqual([]);
    await request(server((res) => res.json({ name: 'x', extra: 1 }))).get('/thing/1');
    expect(takeViolations()).toEqual([
      expect.stringMatching(/GET \/thing\/1 answered 200 .*does not match Things_read/),
    ]);
    await request(server((res) => res.status(409).json({ success: false }))).get('/thing/1');
    expect(takeViolations()).toEqual([expect.stringMatching(/answered 409 .*lists only 200 for Things_read.*@Errors/)]);
    await request(server((res) => res.type('text/csv').send('a,b'))).get('/thing/1');
    expect(takeViolations()).toEqual([
      expect.stringMatching(/as text\/csv, but Things_read documents application\/json/),
    ]);
  });

  it('checks a JSON body of a standard media type written as text (application/scim+json)', async () => {
    await request(server((res) => res.type('application/scim+json').send(JSON.stringify({ id: 'a' }))))
      .get('/standard/1')
      .expect(200);
    expect(takeViolations()).toEqual([]);
    await request(server((res) => res.type('application/scim+json').send(JSON.stringify({ id: 1 })))).get(
      '/standard/1',
    );
    expect(takeViolations()).toEqual([
      expect.stringMatching(/GET \/standard\/1 answered 200 \{"id":1\}, which does not match Standard_read/),
    ]);
    await request(server((res) => res.status(404).type('application/scim+json').send('{"detail":"x"}'))).get('/gone');
    expect(takeViolations()).toEqual([expect.stringMatching(/not the error body/)]);
  });

  it('fails loudly for a route with no documented answer yet, saying what to add', async () => {
    await request(server((res) => res.status(201).json({ ok: true }))).post('/new-route');
    expect(takeViolations()).toEqual([
      expect.stringMatching(
        /POST \/new-route answered 201 .*documents no success answer of Things_create yet.*@Answers\(status/,
      ),
    ]);
    await request(server((res) => res.json({ ok: true }))).get('/not-in-the-document');
    expect(takeViolations()).toEqual([expect.stringMatching(/has no path for it.*@Answers/)]);
  });

  it('leaves the client pages and unknown paths alone, but holds their errors to the error body', async () => {
    await request(server((res) => res.type('html').send('<html></html>'))).get('/logIn');
    await request(
      server((res) => res.status(404).json({ success: false, statusCode: 404, code: 'NOT_FOUND', message: 'x' })),
    ).get('/nothing');
    expect(takeViolations()).toEqual([]);
    await request(server((res) => res.status(404).json({ error: 'x' }))).get('/nothing');
    expect(takeViolations()).toEqual([expect.stringMatching(/not the error body/)]);
  });
});
