import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { Notification } from '../../../src/portal/notifications/entities/notification.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { expectErrorBody } from '../../utils/error-body';
import { PNG_BYTES } from '../../utils/org-admin';
import { createTestApp, TestApp } from '../../utils/test-app';

/** docs/product-rules.md §5: bad input gets a 4xx with the error body of §3, never a 5xx, and changes nothing. */
describe('hostile input', () => {
  let t: TestApp;
  let admin: LoggedIn;
  let adminId: number;
  let orgId: number;
  let support: LoggedIn;
  beforeAll(async () => {
    t = await createTestApp();
    const org = await createOrganisation(t);
    orgId = org.id;
    const user = await createUser(t, org, { roleId: Role.SITE_ADMIN, location: 'London', jobTitle: 'Lead' });
    adminId = user.id;
    admin = await login(t, user.email);
    const vendor = await createOrganisation(t, { isVendor: true });
    support = await login(t, (await createUser(t, vendor, { roleId: Role.E_SUPPORT })).email);
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  /** `[[[…1…]]]`, `depth` arrays deep: about 2 bytes per level. */
  const nestedArrays = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  describe('null for a field', () => {
    it.each(['firstName', 'lastName', 'jobTitle', 'department', 'location'])(
      'PUT /api/users/updateUser {%s: null} is a 400 and keeps the value',
      async (field) => {
        const before = await t.db.getRepository(User).findOneByOrFail({ id: adminId });
        const res = await http()
          .put('/api/users/updateUser')
          .set(admin.auth)
          .send({ [field]: null });
        expectErrorBody(res, 400);
        expect(res.body.message).toContain(
          field === 'firstName' ? 'First name' : field === 'lastName' ? 'Last name' : '',
        );
        expect(await t.db.getRepository(User).findOneByOrFail({ id: adminId })).toEqual(before);
      },
    );

    it.each([
      'accountType',
      'allowedUsersNumber',
      'maxConcurrentUsers',
      'maxPortfolios',
      'masterTaxManagerApplicationIds',
      'masterCorporateActionsApplicationIds',
      'userRoleIds',
      'isSSO',
    ])('POST /auth/site-admin {%s: null} is a 400 and creates nothing', async (field) => {
      const organisations = await t.db.getRepository(Organisation).count();
      const body = {
        userEmail: `new-${field.toLowerCase()}@example.com`,
        organizationName: 'Null Ltd',
        organizationCode: `NULL${field.length}${field.slice(0, 8)}`,
        [field]: null,
      };
      const res = await http().post('/auth/site-admin').set(support.auth).send(body);
      expectErrorBody(res, 400);
      expect(await t.db.getRepository(Organisation).count()).toBe(organisations);
    });

    it('POST /api/notifications with organisationId or userId null is a 400 (not "any organisation")', async () => {
      const service = { 'X-Api-Key': 'test-service-api-key-0123456789' };
      const notifications = await t.db.getRepository(Notification).count();
      expectErrorBody(
        await http().post('/api/notifications').set(service).send({ organisationId: null, type: 'OTHER', content: {} }),
        400,
      );
      expectErrorBody(
        await http()
          .post('/api/notifications')
          .set(service)
          .send({ userId: null, organisationId: orgId, type: 'OTHER', content: {} }),
        400,
      );
      expectErrorBody(
        await http()
          .post('/api/notifications')
          .set(service)
          .send({ userId: adminId, organisationId: null, type: 'OTHER', content: {} }),
        400,
      );
      expect(await t.db.getRepository(Notification).count()).toBe(notifications);
    });

    it('null in place of every field of the sign-in body is a 400', async () => {
      const res = await http()
        .post('/auth/login')
        .send({ username: null, password: null, acceptToS: null, mfaToken: null });
      expectErrorBody(res, 400);
    });
  });

  describe('deep nesting', () => {
    it.each([
      '/auth/login',
      '/auth/forgot-password',
      '/auth/change-password',
      '/auth/reset-password',
      '/api/users/contact-email',
      '/refresh',
    ])('POST %s with 5,000 nested arrays (10 KB) is a 400 without signing in', async (path) => {
      const res = await http().post(path).set('Content-Type', 'application/json').send(nestedArrays(5000));
      expectErrorBody(res, 400);
      expect(res.body.code).toBe('BODY_TOO_DEEP');
    });

    it('nesting inside a field is refused the same way, and so are nested objects', async () => {
      const res = await http()
        .post('/auth/login')
        .set('Content-Type', 'application/json')
        .send(`{"username": ${nestedArrays(5000)}}`);
      expectErrorBody(res, 400);
      expect(res.body.code).toBe('BODY_TOO_DEEP');
      const objects = await http()
        .post('/auth/login')
        .set('Content-Type', 'application/json')
        .send(nestedObjects(3000));
      expectErrorBody(objects, 400);
      expect(objects.body.code).toBe('BODY_TOO_DEEP');
    });

    it('brackets inside strings do not count, and a body at the bound is validated as usual', async () => {
      const res = await http()
        .post('/auth/login')
        .send({ username: '['.repeat(60), password: '{'.repeat(40), acceptToS: true });
      expectErrorBody(res, 400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      const atBound = await http()
        .put('/api/users/updateUser')
        .set(admin.auth)
        .set('Content-Type', 'application/json')
        .send(`{"location": ${nestedArrays(31)}}`);
      expectErrorBody(atBound, 400);
      expect(atBound.body.code).toBe('VALIDATION_FAILED');
    });

    it('a signed-in route refuses a deep body too, and changes nothing', async () => {
      const before = await t.db.getRepository(User).findOneByOrFail({ id: adminId });
      const res = await http()
        .put('/api/users/updateUser')
        .set(admin.auth)
        .set('Content-Type', 'application/json')
        .send(`{"location": ${nestedArrays(5000)}}`);
      expectErrorBody(res, 400);
      expect(await t.db.getRepository(User).findOneByOrFail({ id: adminId })).toEqual(before);
    });

    it('a deep url-encoded body is a 4xx, never a 5xx', async () => {
      const key = `a${'[b]'.repeat(5000)}`;
      const res = await http()
        .post('/auth/login')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(`${key}=1`);
      expectErrorBody(res, 400);
    });
  });

  describe('text that is not valid Unicode', () => {
    // JSON may escape a lone surrogate; validator.js's isEmail then threw URIError (500). Found by the fuzz suite.
    it.each([
      ['/auth/forgot-password', '{"username":"\\ud83d"}'],
      ['/auth/login', '{"username":"a\\ud83d@b.cc","password":"x","acceptToS":true}'],
      ['/api/users/contact-email', '{"name":"n","email":"\\udc00@b.cc","subject":"s","message":"m"}'],
      ['/auth/login', '{"\\ud83d":1}'],
    ])('POST %s with %s is a 400', async (path, body) => {
      const res = await http().post(path).set('Content-Type', 'application/json').send(body);
      expectErrorBody(res, 400);
      expect(res.body.message).toBe('The request body holds text that is not valid Unicode.');
    });

    it('characters outside the BMP (a surrogate pair) are text like any other', async () => {
      const res = await http().put('/api/users/updateUser').set(admin.auth).send({ location: 'Zürich 😀' });
      expect(res.status).toBe(200);
      expect(res.body.location).toBe('Zürich 😀');
    });
  });

  describe('oversized bodies', () => {
    it('a JSON body over the limit is a 413 with the error body', async () => {
      const res = await http()
        .post('/auth/login')
        .send({ username: 'a@b.cc', password: 'x', acceptToS: true, pad: 'x'.repeat(200 * 1024) });
      expectErrorBody(res, 413);
      expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' });
    });

    it('a url-encoded body over the limit is a 413 with the error body', async () => {
      const res = await http()
        .post('/auth/login')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(`pad=${'x'.repeat(200 * 1024)}`);
      expectErrorBody(res, 413);
    });

    it('a compressed body is held to the limit once inflated (no zip bomb), and an unknown encoding is a 415', async () => {
      const bomb = gzipSync(
        JSON.stringify({ username: 'a@b.cc', password: 'x', acceptToS: true, pad: ' '.repeat(5 * 1024 * 1024) }),
      );
      expect(bomb.length).toBeLessThan(10 * 1024);
      // serialize: the bytes as they are (superagent would JSON-encode a Buffer sent as application/json).
      const res = await http()
        .post('/auth/login')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .serialize((bytes) => bytes)
        .send(bomb);
      expectErrorBody(res, 413);
      const unknown = await http()
        .post('/auth/login')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'snappy')
        .send('{}');
      expectErrorBody(unknown, 415);
    });

    it('the logo upload keeps its own 10 MB limit: a 5 MB image uploads, whatever its declared type', async () => {
      for (const type of ['image/png', 'application/octet-stream']) {
        const bytes = Buffer.concat([PNG_BYTES, Buffer.alloc(5 * 1024 * 1024 - PNG_BYTES.length)]);
        const grant = await http()
          .post('/api/logo/get-upload-url')
          .set(admin.auth)
          .send({ fileName: 'big.png', fileSize: bytes.length, mimeType: 'image/png' });
        expect(grant.status).toBe(200);
        const res = await http().put(grant.body.uploadUrl).set('Content-Type', type).send(bytes);
        expect({ type, status: res.status, body: res.body }).toEqual({
          type,
          status: 200,
          body: { success: true, logoPath: grant.body.logoPath },
        });
      }
    });

    it('malformed JSON is a 400 with the error body', async () => {
      const res = await http().post('/auth/login').set('Content-Type', 'application/json').send('{"username": ');
      expectErrorBody(res, 400);
    });
  });

  describe('bad ids in the path', () => {
    it.each([
      'abc',
      '-1',
      '0',
      '1.5',
      '1e999',
      '99999999999999999999999',
      '9007199254740993',
      '%00',
      'NaN',
      'Infinity',
      '0x10',
    ])('GET /api/users/byId/%s is a 400 or 404', async (id) => {
      const res = await http().get(`/api/users/byId/${id}`).set(admin.auth);
      expect([400, 404]).toContain(res.status);
      expectErrorBody(res, res.status);
    });

    it.each(['abc', '-1', '1e999', '99999999999999999999999'])(
      'POST /api/notifications/%s/dismiss and GET /api/userLoginActivities/%s are 400 or 404',
      async (id) => {
        for (const res of [
          await http().post(`/api/notifications/${id}/dismiss`).set(admin.auth),
          await http().post(`/api/announcements/${id}/dismiss`).set(admin.auth),
          await http().get(`/api/userLoginActivities/${id}`).set(admin.auth),
          await http().get(`/api/users/${id}/user-groups`).set(admin.auth),
        ]) {
          expect([400, 404]).toContain(res.status);
          expectErrorBody(res, res.status);
        }
      },
    );
  });

  describe('paths', () => {
    it.each([
      ['get', '/api/no-such-thing'],
      ['delete', '/auth/login'],
      ['get', '/auth/%E0%A4%A'],
      ['post', '/api/users/byId/1'],
    ] as const)('%s %s is a 404, 405 or 400 with the error body, not the client page', async (method, path) => {
      const res = await http()[method](path).set(admin.auth);
      expect([400, 404, 405]).toContain(res.status);
      expectErrorBody(res, res.status);
    });
  });

  describe('query strings', () => {
    it.each([
      'page=1&page=2',
      'page[]=1',
      'page[a]=1',
      'searchText=a&searchText=b',
      'pageSize[]=25',
      'role=1e999',
      'organisationId=-1',
      'searchText[a][b]=1',
      'page=1e999',
      'page=abc',
    ])('GET /api/users?%s is a 400 with the error body', async (qs) => {
      const res = await http().get(`/api/users?${qs}`).set(admin.auth);
      expectErrorBody(res, 400);
    });

    it('a huge page number is a 400 (every numeric parameter: hostile-http.e2e-spec.ts)', async () => {
      const res = await http().get('/api/users?page=99999999999999999999').set(admin.auth);
      expectErrorBody(res, 400);
    });
  });
});
