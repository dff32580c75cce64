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
            : access.kind === 'scim'
              ? 'provisioning-token'
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

  it('marks the sensitive calls of CONTRACT 7 (and no other) for a recent proof of identity', () => {
    const marked = listRoutes(t.app)
      .filter((r) => r.stepUp)
      .map((r) => `${r.method} ${r.path} (${r.stepUp})`)
      .sort();
    expect(marked).toEqual(
      expect.arrayContaining([
        'DELETE /mfa/passkeys/:id (always)',
        'GET /api/audit-events/export (always)',
        'GET /api/users/export (always)',
        'POST /api/users/add (conditional)',
        'POST /api/users/add-esupport (always)',
        'POST /auth/site-admin (always)',
        'PUT /api/mfa/disableUserMfa (always)',
        'PUT /api/users/updateRole (conditional)',
      ]),
    );
    // Every write route of identity-provider connections, domains and provisioning tokens.
    const writes = listRoutes(t.app).filter(
      (r) => /^\/api\/(sso-connections|domains|scim-tokens)/.test(r.path) && r.method !== 'GET',
    );
    // A test sign-in through a connection changes nothing and signs nobody in.
    expect(writes.filter((r) => r.stepUp !== 'always').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/sso-connections/:id/test',
    ]);
    // Calls that carry a current second factor are their own step-up.
    expect(marked.filter((r) => /^POST \/mfa\/(disable|recovery-codes) /.test(r))).toEqual([]);
  });

  it('lists directory provisioning: tokens by role, every SCIM route by provisioning token only', () => {
    const decisions = Object.fromEntries(routes().map((r) => [r.route, r.decision]));
    expect(decisions).toMatchObject({
      'GET /api/scim-tokens': 'roles:1,2,3',
      'POST /api/scim-tokens': 'roles:1,2',
      'DELETE /api/scim-tokens/:id': 'roles:1,2',
    });
    const scim = routes().filter((r) => r.route.includes(' /scim/'));
    expect(scim.map((r) => r.route).sort()).toEqual(
      [
        'GET /scim/v2/ServiceProviderConfig',
        'GET /scim/v2/ResourceTypes',
        'GET /scim/v2/ResourceTypes/:id',
        'GET /scim/v2/Schemas',
        'GET /scim/v2/Schemas/:id',
        ...['GET', 'POST'].flatMap((m) => [`${m} /scim/v2/Users`, `${m} /scim/v2/Groups`]),
        ...['GET', 'PUT', 'PATCH', 'DELETE'].flatMap((m) => [`${m} /scim/v2/Users/:id`, `${m} /scim/v2/Groups/:id`]),
      ].sort(),
    );
    expect(scim.every((r) => r.decision === 'provisioning-token')).toBe(true);
  });

  it('has no route without an access decision', () => {
    expect(routes().filter((r) => r.decision === 'NONE')).toEqual([]);
  });
});
