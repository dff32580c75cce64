import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Role } from '../../../src/shared/roles';
import { createUser, login } from '../factories';
import { TestApp } from '../test-app';

export const SCIM_TYPE = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A provisioning token of `org`, created through the API by a site admin of it (made here when none is given). */
export async function provisioningToken(
  t: TestApp,
  org: Organisation,
  name = 'Directory',
  siteAdminAuth?: { Authorization: string },
): Promise<{ id: number; token: string }> {
  const auth = siteAdminAuth ?? (await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email)).auth;
  const res = await request(t.http).post('/api/scim-tokens').set(auth).send({ name });
  if (res.status !== 201) throw new Error(`token creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, token: res.body.token };
}

/** A SCIM client of one token: `scim.get('/Users')`, `scim.post('/Users', body)`, … with application/scim+json. */
export function scimClient(t: TestApp, token: string) {
  const auth = { Authorization: `Bearer ${token}` };
  const url = (path: string) => `/scim/v2${path}`;
  const send = (method: 'post' | 'put' | 'patch', path: string, body: unknown) =>
    request(t.http)[method](url(path)).set(auth).set('Content-Type', SCIM_TYPE).send(JSON.stringify(body));
  return {
    auth,
    get: (path: string) => request(t.http).get(url(path)).set(auth).set('Accept', SCIM_TYPE),
    post: (path: string, body: unknown) => send('post', path, body),
    put: (path: string, body: unknown) => send('put', path, body),
    patch: (path: string, body: unknown) => send('patch', path, body),
    delete: (path: string) => request(t.http).delete(url(path)).set(auth),
  };
}

export type ScimClient = ReturnType<typeof scimClient>;

/** A minimal SCIM User body. */
export function scimUser(userName: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [USER_SCHEMA, ENTERPRISE],
    userName,
    name: { givenName: 'Given', familyName: 'Family' },
    active: true,
    ...extra,
  };
}

export const patchOp = (...Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations });
