import request from 'supertest';
import { sha256 } from '../../../src/platform/crypto/secrets';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { ScimToken } from '../../../src/identity/scim/entities/scim-token.entity';
import { SCIM_TOKENS_MAX } from '../../../src/shared/identity/scim';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { ERROR_SCHEMA, scimClient } from '../../utils/identity-providers/scim';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';

/** Provisioning tokens (docs/product-rules.md §6): per organisation, shown once, stored hashed, listed, revoked at once, audited. */
describe('Provisioning tokens: /api/scim-tokens', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  const admin = () => m.byRole.SITE_ADMIN.session.auth;
  let n = 0;
  const create = async (auth = admin(), query = '') =>
    (
      await http()
        .post(`/api/scim-tokens${query}`)
        .set(auth)
        .send({ name: `Token ${n++}` })
        .expect(201)
    ).body as { id: number; name: string; token: string };
  const tokensOf = (organisationId: number) => t.db.getRepository(ScimToken).findBy({ organisationId });

  it('refuses every route without a signed-in user (401), and a provisioning token is no user token', async () => {
    await http().get('/api/scim-tokens').expect(401);
    await http().post('/api/scim-tokens').send({ name: 'x' }).expect(401);
    await http().delete('/api/scim-tokens/1').expect(401);
    const { token } = await create();
    await http().get('/api/scim-tokens').set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('POST: the site admin, or E-Support for a named organisation; every other role 403; another organisation 404', async () => {
    const q = `?organisationId=${m.org.id}`;
    expect(
      await statusesFor(m, (a) =>
        http()
          .post(`/api/scim-tokens${q}`)
          .set(a.session.auth)
          .send({ name: `Role ${n++}` }),
      ),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 201));
    const before = (await tokensOf(m.org.id)).length;
    expectErrorBody(
      await http().post(`/api/scim-tokens${q}`).set(m.otherOrgAdmin.session.auth).send({ name: 'x' }),
      404,
    );
    // E-Support without an organisation names its own, the vendor's, which no directory provisions.
    expectErrorBody(
      await http().post('/api/scim-tokens').set(m.byRole.E_SUPPORT.session.auth).send({ name: 'x' }),
      400,
    );
    expect(await tokensOf(m.org.id)).toHaveLength(before);
  });

  it('GET: E-Support, site admin and administrators; others 403; never the token or its hash', async () => {
    const made = await create();
    expect(
      await statusesFor(m, (a) => http().get(`/api/scim-tokens?organisationId=${m.org.id}`).set(a.session.auth)),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'], 200));
    const list = (await http().get('/api/scim-tokens').set(admin()).expect(200)).body as Array<Record<string, unknown>>;
    const item = list.find((i) => i.id === made.id)!;
    expect(item).toEqual({
      id: made.id,
      name: made.name,
      organisationId: m.org.id,
      createdAt: expect.any(String),
      createdBy: m.byRole.SITE_ADMIN.user.email,
      lastUsedAt: null,
    });
    expect(JSON.stringify(list)).not.toContain(made.token);
    expect(JSON.stringify(list)).not.toContain(sha256(made.token));
    expectErrorBody(
      await http().get(`/api/scim-tokens?organisationId=${m.org.id}`).set(m.otherOrgAdmin.session.auth),
      404,
    );
    expect((await http().get('/api/scim-tokens').set(m.otherOrgAdmin.session.auth).expect(200)).body).toEqual([]);
  });

  it('stores only the SHA-256 of the token, which is shown once', async () => {
    const made = await create();
    expect(made.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    const row = await t.db.getRepository(ScimToken).findOneByOrFail({ id: made.id });
    expect(row.tokenHash).toBe(sha256(made.token));
    const raw = JSON.stringify(await t.db.query('SELECT * FROM scim_tokens'));
    expect(raw).not.toContain(made.token);
  });

  it('names are required, trimmed and at most 50 characters; unknown fields refused; nothing stored then', async () => {
    const before = (await tokensOf(m.org.id)).length;
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(51) }, { name: 7 }, { name: 'a', x: 1 }])
      expectErrorBody(await http().post('/api/scim-tokens').set(admin()).send(body), 400);
    expect(await tokensOf(m.org.id)).toHaveLength(before);
    const res = await http().post('/api/scim-tokens').set(admin()).send({ name: '  Okta  ' }).expect(201);
    expect(res.body.name).toBe('Okta');
  });

  it('DELETE: the site admin or E-Support; the revoked token is refused (401, SCIM error) on its very next call', async () => {
    const made = await create();
    const scim = scimClient(t, made.token);
    await scim.get('/Users').expect(200);
    for (const role of ['ADMINISTRATOR', 'STANDARD_ADMIN', 'PORTFOLIO_MANAGER', 'ANALYST', 'VIEWER', 'CA_VIEWER'])
      expectErrorBody(await http().delete(`/api/scim-tokens/${made.id}`).set(m.byRole[role].session.auth), 403);
    expectErrorBody(await http().delete(`/api/scim-tokens/${made.id}`).set(m.otherOrgAdmin.session.auth), 404);
    await scim.get('/Users').expect(200);
    await http().delete(`/api/scim-tokens/${made.id}`).set(admin()).expect(200, { success: true });
    const refused = await scim.get('/Users').expect(401);
    expect(refused.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(refused.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401', detail: expect.any(String) });
    expectErrorBody(await http().delete(`/api/scim-tokens/${made.id}`).set(admin()), 404);
    const bySupport = await create();
    await http().delete(`/api/scim-tokens/${bySupport.id}`).set(m.byRole.E_SUPPORT.session.auth).expect(200);
  });

  it('an organisation holds at most 10 tokens, also when they are created in parallel', async () => {
    const org = await createOrganisation(t);
    const siteAdmin = m.byRole.E_SUPPORT.session.auth;
    const results = await Promise.all(
      Array.from({ length: SCIM_TOKENS_MAX + 5 }, (_, i) =>
        http()
          .post(`/api/scim-tokens?organisationId=${org.id}`)
          .set(siteAdmin)
          .send({ name: `P${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(SCIM_TOKENS_MAX);
    for (const r of results.filter((x) => x.status !== 201)) expectErrorBody(r, 409);
    expect(await tokensOf(org.id)).toHaveLength(SCIM_TOKENS_MAX);
  });

  it('audits creation and revocation by the user, and uses by the token (at most one event a minute)', async () => {
    const made = await create();
    const scim = scimClient(t, made.token);
    for (let i = 0; i < 5; i++) await scim.get('/Users?count=1').expect(200);
    await http().delete(`/api/scim-tokens/${made.id}`).set(admin()).expect(200);
    const events = await t.db
      .getRepository(AuditEvent)
      .find({ where: { organisationId: m.org.id }, order: { id: 'ASC' } });
    const mine = events.filter((e) => e.summary.includes(`"${made.name}"`));
    expect(mine.map((e) => [e.type, e.actorKind, e.actorEmail])).toEqual([
      ['SCIM_TOKEN_CREATED', 'user', m.byRole.SITE_ADMIN.user.email],
      ['SCIM_TOKEN_USED', 'scim-token', made.name],
      ['SCIM_TOKEN_REVOKED', 'user', m.byRole.SITE_ADMIN.user.email],
    ]);
    expect(mine[1].actorId).toBe(made.id);
    const log = await http().get('/api/audit-events?type=SCIM_TOKEN_USED').set(admin()).expect(200);
    expect(log.body.items.some((e: { actorKind: string; actorEmail: string }) => e.actorEmail === made.name)).toBe(
      true,
    );
  });

  it('records the last use on the list, once a minute', async () => {
    const made = await create();
    const scim = scimClient(t, made.token);
    await scim.get('/ServiceProviderConfig').expect(200);
    const first = (await http().get('/api/scim-tokens').set(admin()).expect(200)).body.find(
      (i: { id: number }) => i.id === made.id,
    );
    expect(Date.parse(first.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    await scim.get('/ServiceProviderConfig').expect(200);
    const again = (await http().get('/api/scim-tokens').set(admin()).expect(200)).body.find(
      (i: { id: number }) => i.id === made.id,
    );
    expect(again.lastUsedAt).toBe(first.lastUsedAt);
  });
});
