import { AuditEvent } from '../../platform/audit/entities/audit-event.entity';
import { sha256 } from '../../platform/crypto/secrets';
import { ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';
import { SCIM_TOKENS_MAX } from '../../shared/identity/scim';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { callerOf, refusalOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { ScimToken } from './entities/scim-token.entity';
import { ScimTokensService, TOKEN_USE_RECORD_MS } from './scim-tokens.service';

describe.each(SERVICE_DATABASES)('ScimTokensService on %s', (database) => {
  const t = serviceApp(database);
  const tokens = () => t().app.get(ScimTokensService);
  const client = { ip: '203.0.113.5', userAgent: 'jest' };

  async function siteAdmin() {
    const org = await createOrganisation(t());
    return { org, caller: callerOf(await createUser(t(), org, { roleId: Role.SITE_ADMIN })) };
  }
  const eventsOf = (organisationId: number, type: string) =>
    t()
      .db.getRepository(AuditEvent)
      .countBy({ organisationId, type: type as AuditEvent['type'] });

  it('shows a new token once, keeps only its hash, and lists it without it', async () => {
    const { org, caller } = await siteAdmin();
    const created = await tokens().create(caller, 'Entra ID', undefined, client);
    expect(created.token).toMatch(/^scim_.{30,}$/);
    const row = await t().db.getRepository(ScimToken).findOneByOrFail({ id: created.id });
    expect(row.tokenHash).toBe(sha256(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = await tokens().list(caller);
    expect(listed).toEqual([expect.objectContaining({ id: created.id, name: 'Entra ID', organisationId: org.id })]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(await eventsOf(org.id, 'SCIM_TOKEN_CREATED')).toBe(1);
  });

  it(`holds at most ${SCIM_TOKENS_MAX} tokens per organisation under parallel creations`, async () => {
    const { org, caller } = await siteAdmin();
    for (let i = 0; i < SCIM_TOKENS_MAX - 2; i++) await tokens().create(caller, `t${i}`, undefined, client);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => refusalOf(tokens().create(caller, `p${i}`, undefined, client))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(2);
    expect(results.filter((r) => r !== null)).toEqual(Array(3).fill({ status: 409, code: ERROR_CODES.CONFLICT }));
    expect(await t().db.getRepository(ScimToken).countBy({ organisationId: org.id })).toBe(SCIM_TOKENS_MAX);
  });

  it("keeps another organisation's tokens from a site admin, and gives E-Support any organisation's but the vendor's", async () => {
    const owner = await siteAdmin();
    const created = await tokens().create(owner.caller, 'Okta', undefined, client);
    const stranger = await siteAdmin();
    expect(await refusalOf(tokens().list(stranger.caller, owner.org.id))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await refusalOf(tokens().create(stranger.caller, 'x', owner.org.id, client))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await refusalOf(tokens().revoke(stranger.caller, created.id, client))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    const vendor = await createOrganisation(t(), { isVendor: true });
    const support = callerOf(await createUser(t(), vendor, { roleId: Role.E_SUPPORT }));
    expect(await tokens().list(support, owner.org.id)).toHaveLength(1);
    expect(await refusalOf(tokens().create(support, 'x', vendor.id, client))).toMatchObject({ status: 400 });
    await tokens().revoke(support, created.id, client);
    expect(await tokens().list(owner.caller)).toEqual([]);
  });

  it('revokes once: a parallel second revoke is a 404 and one audit event is left', async () => {
    const { org, caller } = await siteAdmin();
    const created = await tokens().create(caller, 'Directory', undefined, client);
    const results = await Promise.all([
      refusalOf(tokens().revoke(caller, created.id, client)),
      refusalOf(tokens().revoke(caller, created.id, client)),
    ]);
    expect(results).toContainEqual(null);
    expect(results).toContainEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await eventsOf(org.id, 'SCIM_TOKEN_REVOKED')).toBe(1);
  });

  it('records a use at most once a minute per token, whoever records it', async () => {
    const { org, caller } = await siteAdmin();
    const created = await tokens().create(caller, 'Directory', undefined, client);
    const scim = { tokenId: created.id, tokenName: 'Directory', organisationId: org.id, lastUsedAt: null };
    const now = new Date();
    await Promise.all([1, 2, 3].map(() => tokens().recordUse(scim, client, now)));
    expect(await eventsOf(org.id, 'SCIM_TOKEN_USED')).toBe(1);
    await tokens().recordUse(scim, client, new Date(now.getTime() + TOKEN_USE_RECORD_MS / 2));
    expect(await eventsOf(org.id, 'SCIM_TOKEN_USED')).toBe(1);
    await tokens().recordUse(scim, client, new Date(now.getTime() + TOKEN_USE_RECORD_MS + 1000));
    expect(await eventsOf(org.id, 'SCIM_TOKEN_USED')).toBe(2);
    expect((await tokens().list(caller))[0].lastUsedAt).toBe(
      new Date(now.getTime() + TOKEN_USE_RECORD_MS + 1000).toISOString(),
    );
  });
});
