import { openApiDocument } from '../../../src/platform/openapi/document';
import { listRoutes } from '../../utils/routes';
import { createTestApp, TestApp } from '../../utils/test-app';

/** Every HTTP route of the product states who may call it, once (`@Access`: roles, or an explicit opt-out). */
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
              : access.kind === 'challenge'
                ? `challenge:${access.step}${access.optional ? ' (optional)' : ''}`
                : access.roles.length
                  ? `roles:${access.roles.join(',')}`
                  : 'NONE',
    }));
  }

  it('states the access of every route with exactly one @Access, on the handler or on its controller', () => {
    const all = listRoutes(t.app);
    expect(all.length).toBeGreaterThan(80);
    expect(all.filter((r) => r.accessDeclarations !== 1).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('binds the sign-in steps to their challenge token, which the access guard verifies (and no other route)', () => {
    expect(routes().filter((r) => r.decision.startsWith('challenge:'))).toEqual(
      expect.arrayContaining([
        { route: 'POST /auth/login', decision: 'challenge:mfa (optional)' },
        { route: 'POST /auth/passkey/options', decision: 'challenge:mfa (optional)' },
        { route: 'POST /mfa/email-mfa', decision: 'challenge:mfa' },
        { route: 'POST /auth/change-password', decision: 'challenge:change-password' },
      ]),
    );
    expect(routes().filter((r) => r.decision.startsWith('challenge:'))).toHaveLength(4);
  });

  it("documents each route's credential from its @Access alone: the OpenAPI security and the 401 and 403", () => {
    const doc = openApiDocument(t.app);
    const expected = (access: ReturnType<typeof listRoutes>[number]['access'], path: string) =>
      access.kind === 'roles'
        ? [{ bearer: [] }, ...(access.apiKey ? [{ apiKey: [] }] : [])]
        : access.kind === 'service'
          ? [{ service: [] }]
          : access.kind === 'scim'
            ? [{ provisioning: [] }]
            : access.kind === 'challenge'
              ? [...(access.optional ? [{}] : []), { challenge: [] }]
              : path === '/refresh'
                ? [{ refreshCookie: [] }]
                : ['/auth/status', '/auth/logout', '/api/users/contact-email'].includes(path)
                  ? [{}, { bearer: [] }]
                  : [];
    const wrong: string[] = [];
    let documented = 0;
    for (const { method, path, access } of listRoutes(t.app)) {
      const op = (doc.paths[path.replace(/:(\w+)/g, '{$1}')] as Record<string, Record<string, unknown>> | undefined)?.[
        method.toLowerCase()
      ] as { security?: unknown; responses: Record<string, unknown> } | undefined;
      if (!op) continue; // not in the document (@ApiExcludeController, e.g. the SSO browser redirects)
      documented++;
      const security = expected(access, path);
      if (JSON.stringify(op.security) !== JSON.stringify(security))
        wrong.push(`${method} ${path}: ${JSON.stringify(op.security)}, not ${JSON.stringify(security)}`);
      if (security.length > 0 && !(op.responses['401'] && op.responses['403']))
        wrong.push(`${method} ${path}: no 401 and 403`);
    }
    expect(wrong).toEqual([]);
    expect(documented).toBeGreaterThan(70);
  });

  it('finds the routes', () => {
    expect(routes().map((r) => r.route)).toEqual(
      expect.arrayContaining(['POST /auth/login', 'GET /api/users/current', 'POST /refresh']),
    );
  });

  it('marks the sensitive calls of docs/product-rules.md §7 (and no other) for a recent proof of identity', () => {
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
