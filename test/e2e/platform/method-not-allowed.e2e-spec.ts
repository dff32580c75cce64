import request from 'supertest';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { listRoutes } from '../../utils/routes';
import { createTestApp, TestApp } from '../../utils/test-app';

/** RFC 9110 §15.5.6 and §9.3.7: a known path with a method it does not take, and OPTIONS. */
describe('405 Method Not Allowed and OPTIONS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers PUT /api/users/current 405 with Allow and the error body, signed in or not', async () => {
    const org = await createOrganisation(t);
    const user = await createUser(t, org, { roleId: Role.STANDARD_ADMIN });
    const s = await login(t, user.email);
    for (const auth of [{}, s.auth]) {
      const res = await request(t.http).put('/api/users/current').set(auth).send({ firstName: 'X' });
      expectErrorBody(res, 405);
      expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
    // Nothing changed.
    const me = await request(t.http).get('/api/users/current').set(s.auth).expect(200);
    expect(me.body.firstName).not.toBe('X');
  });

  it('lists every method of every pattern that matches, path parameters and a trailing slash included', async () => {
    // /api/notifications takes GET (the list) and POST (publish, service key).
    const list = await request(t.http).delete('/api/notifications/');
    expectErrorBody(list, 405);
    expect(list.headers.allow).toBe('GET, HEAD, OPTIONS, POST');
    const dismiss = await request(t.http).get('/api/notifications/17/dismiss');
    expectErrorBody(dismiss, 405);
    expect(dismiss.headers.allow).toBe('OPTIONS, POST');
  });

  it('answers OPTIONS 204 with Allow and grants no cross-origin access (a preflight included)', async () => {
    const res = await request(t.http)
      .options('/api/users/current')
      .set('Origin', 'https://elsewhere.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.text).toBe('');
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('leaves unknown paths 404 and allowed methods to their routes', async () => {
    expectErrorBody(await request(t.http).put('/api/no-such-thing'), 404);
    expectErrorBody(await request(t.http).options('/api/no-such-thing'), 404);
    await request(t.http).get('/api/users/current').expect(401);
    await request(t.http).head('/api/health/live').expect(200);
  });

  it('holds for every route of every controller: OPTIONS names its method, another method is 405', async () => {
    const routes = listRoutes(t.app);
    expect(routes.length).toBeGreaterThan(50);
    const concrete = (path: string) => path.replace(/:(\w+)/g, '1');
    for (const route of routes) {
      const path = concrete(route.path);
      const options = await request(t.http).options(path);
      expect({ route: `${route.method} ${route.path}`, status: options.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 204,
      });
      const allow = String(options.headers.allow).split(', ');
      expect(allow).toContain(route.method);
      const other = ['PUT', 'DELETE', 'PATCH', 'POST', 'GET'].find((m) => !allow.includes(m));
      if (!other) continue;
      const res = await request(t.http)[other.toLowerCase() as 'put'](path);
      expectErrorBody(res, 405);
      expect(res.headers.allow).toBe(options.headers.allow);
    }
  });
});
