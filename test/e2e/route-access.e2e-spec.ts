import { listRoutes } from '../utils/routes';
import { createTestApp, TestApp } from '../utils/test-app';

/** Every HTTP route of the product states who may call it (the bar: `@Roles()` or an explicit opt-out). */
describe('route access inventory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The routes as test/utils/routes.ts lists them, with their access decision ('NONE' when a route has none). */
  function routes() {
    return listRoutes(t.app).map(({ method, path, access }) => ({
      route: `${method} ${path}`,
      decision:
        access.kind === 'public'
          ? 'public'
          : access.kind === 'service'
            ? 'service-api'
            : access.roles.length
              ? `roles:${access.roles.join(',')}`
              : 'NONE',
    }));
  }

  it('finds the routes', () => {
    expect(routes().map((r) => r.route)).toEqual(
      expect.arrayContaining(['POST /auth/login', 'GET /api/users/current', 'POST /refresh']),
    );
  });

  it('has no route without an access decision', () => {
    expect(routes().filter((r) => r.decision === 'NONE')).toEqual([]);
  });
});
