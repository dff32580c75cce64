import { AccessRule } from '../../platform/web/decorators/access.decorators';
import { Role } from '../../shared/roles';
import { apiKeyMayCall } from './api-key-scope';

const roles = (extra: Partial<Extract<AccessRule, { kind: 'roles' }>> = {}): AccessRule => ({
  kind: 'roles',
  roles: [Role.SITE_ADMIN],
  mfaPending: false,
  ...extra,
});

describe('apiKeyMayCall', () => {
  it('lets a key call a route that names one of its scopes', () => {
    expect(apiKeyMayCall(roles({ apiKey: 'users:read' }), ['users:read'], {})).toBe(true);
    expect(apiKeyMayCall(roles({ apiKey: 'audit:read' }), ['users:read', 'audit:read'], {})).toBe(true);
  });

  it('refuses a scope the key lacks, a route naming none, a rule-less route and every non-role rule', () => {
    expect(apiKeyMayCall(roles({ apiKey: 'users:write' }), ['users:read'], {})).toBe(false);
    expect(apiKeyMayCall(roles(), ['users:read', 'users:write', 'audit:read'], {})).toBe(false);
    expect(apiKeyMayCall(undefined, ['users:read'], {})).toBe(false);
    expect(apiKeyMayCall({ kind: 'public' }, ['users:read'], {})).toBe(false);
    expect(apiKeyMayCall({ kind: 'scim' }, ['users:read'], {})).toBe(false);
  });

  it('refuses a sensitive call: always-sensitive routes, and a conditional one when this request is sensitive', () => {
    expect(apiKeyMayCall(roles({ apiKey: 'users:write', stepUp: {} }), ['users:write'], {})).toBe(false);
    const when = ({ body }: { body?: unknown }) => (body as { grant?: boolean }).grant === true;
    const conditional = roles({ apiKey: 'users:write', stepUp: { when } });
    expect(apiKeyMayCall(conditional, ['users:write'], { body: { grant: true } })).toBe(false);
    expect(apiKeyMayCall(conditional, ['users:write'], { body: { grant: false } })).toBe(true);
  });
});
