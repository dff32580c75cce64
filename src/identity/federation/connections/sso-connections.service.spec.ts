import { AuditEvent } from '../../../platform/audit/entities/audit-event.entity';
import { decrypt } from '../../../platform/crypto/secrets';
import { ERROR_CODES } from '../../../shared/messages';
import { Role } from '../../../shared/roles';
import { SSO_LIMITS, SSO_MESSAGES } from '../../../shared/identity/sso';
import { createOrganisation, createUser } from '../../../../test/utils/factories';
import { startTestIdp, TestIdp } from '../../../../test/utils/identity-providers/saml-idp';
import { callerOf, refusalOf, SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { CreateSsoConnectionDto } from './dto/sso-connection.dto';
import { SsoConnection } from '../entities/sso-connection.entity';
import { SsoConnectionsService } from './sso-connections.service';
import { testSecret, withTestCredentials } from '../../../../test/utils/secrets';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp('connections');
});

describe.each(SERVICE_DATABASES)('SsoConnectionsService on %s', (database) => {
  const t = serviceApp(database);
  const connections = () => t().app.get(SsoConnectionsService);
  const client = { ip: '203.0.113.3', userAgent: 'jest' };
  const SECRET = testSecret('client');

  async function siteAdmin() {
    const org = await createOrganisation(t());
    return { org, caller: callerOf(await createUser(t(), org, { roleId: Role.SITE_ADMIN })) };
  }
  const oidc = (fields: Partial<CreateSsoConnectionDto> = {}) =>
    ({
      protocol: 'oidc',
      name: 'Corporate',
      issuer: 'https://login.example.com/tenant/',
      clientId: 'portal',
      clientSecret: SECRET,
      ...fields,
    }) as CreateSsoConnectionDto;
  const saml = () => ({ protocol: 'saml', name: 'ADFS', metadataXml: idp.metadataXml }) as CreateSsoConnectionDto;
  const messageOf = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: { getResponse(): { message: string } }) => e.getResponse().message,
    );

  it('stores the client secret encrypted, never answers it, and audits only that it was set', async () => {
    const { org, caller } = await siteAdmin();
    const item = await connections().create(caller, oidc(), undefined, client);
    expect(item).toMatchObject({ protocol: 'oidc', issuer: 'https://login.example.com/tenant', hasClientSecret: true });
    expect(JSON.stringify(item)).not.toContain(SECRET);
    const row = await t().db.getRepository(SsoConnection).findOneByOrFail({ id: item.id });
    expect(row.oidcClientSecret).not.toContain(SECRET);
    expect(decrypt(row.oidcClientSecret!, t().config.encryptionKey)).toBe(SECRET);
    const events = await t().db.getRepository(AuditEvent).findBy({ organisationId: org.id });
    expect(events.map((e) => e.type)).toEqual(['SSO_CONNECTION_CREATED']);
    expect(events[0].changes).not.toContain(SECRET);
    expect(JSON.parse(events[0].changes!)).toMatchObject({ clientCredential: { from: null, to: 'replaced' } });
  });

  it('refuses an issuer that is not https, carries credentials, or is no URL', async () => {
    const { caller } = await siteAdmin();
    const withCredentials = withTestCredentials('https://login.example.com').url;
    for (const issuer of ['http://login.example.com', withCredentials, 'login.example.com'])
      expect(await messageOf(connections().create(caller, oidc({ issuer }), undefined, client))).toBe(
        SSO_MESSAGES.ISSUER_INVALID,
      );
    expect(await connections().list(caller)).toEqual([]);
  });

  it("reads a SAML provider's entity, endpoints and certificate from its metadata, and refuses what is not metadata", async () => {
    const { caller } = await siteAdmin();
    const item = await connections().create(caller, saml(), undefined, client);
    expect(item).toMatchObject({ protocol: 'saml', idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl });
    const row = await t().db.getRepository(SsoConnection).findOneByOrFail({ id: item.id });
    expect(row.samlCertificates).toHaveLength(1);
    expect(
      await messageOf(connections().create(caller, { ...saml(), metadataXml: '<html/>' }, undefined, client)),
    ).toBe(SSO_MESSAGES.METADATA_INVALID);
    expect(await messageOf(connections().update(caller, item.id, { clientSecret: testSecret() }, client))).toBe(
      SSO_MESSAGES.FIELDS_OF_OTHER_PROTOCOL,
    );
  });

  it(`holds at most ${SSO_LIMITS.PER_ORGANISATION} connections per organisation under parallel additions`, async () => {
    const { org, caller } = await siteAdmin();
    const repo = t().db.getRepository(SsoConnection);
    for (let i = 0; i < SSO_LIMITS.PER_ORGANISATION - 2; i++)
      await repo.insert({ organisationId: org.id, protocol: 'oidc', name: `c${i}`, enabled: false });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => refusalOf(connections().create(caller, oidc(), undefined, client))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(2);
    expect(results.filter((r) => r !== null)).toEqual(Array(3).fill({ status: 409, code: ERROR_CODES.CONFLICT }));
    expect(await repo.countBy({ organisationId: org.id })).toBe(SSO_LIMITS.PER_ORGANISATION);
  });

  it("keeps another organisation's connections from a site admin, and gives them to E-Support", async () => {
    const owner = await siteAdmin();
    const item = await connections().create(owner.caller, oidc(), undefined, client);
    const stranger = await siteAdmin();
    const notFound = { status: 404, code: ERROR_CODES.NOT_FOUND };
    expect(await refusalOf(connections().list(stranger.caller, owner.org.id))).toEqual(notFound);
    expect(await refusalOf(connections().create(stranger.caller, oidc(), owner.org.id, client))).toEqual(notFound);
    expect(await refusalOf(connections().update(stranger.caller, item.id, { enabled: false }, client))).toEqual(
      notFound,
    );
    expect(await refusalOf(connections().remove(stranger.caller, item.id, client))).toEqual(notFound);
    expect((await connections().list(owner.caller))[0]).toMatchObject({ id: item.id, enabled: true });

    const support = callerOf(await createUser(t(), await createOrganisation(t()), { roleId: Role.E_SUPPORT }));
    await connections().update(support, item.id, { enabled: false, jitProvisioning: true }, client);
    expect((await connections().list(support, owner.org.id))[0]).toMatchObject({
      enabled: false,
      jitProvisioning: true,
    });
  });

  it('audits a change as before and after, keeping the stored secret when none is sent', async () => {
    const { org, caller } = await siteAdmin();
    const item = await connections().create(caller, oidc(), undefined, client);
    await connections().update(caller, item.id, { name: 'Renamed', issuer: 'https://other.example.com' }, client);
    const row = await t().db.getRepository(SsoConnection).findOneByOrFail({ id: item.id });
    expect(decrypt(row.oidcClientSecret!, t().config.encryptionKey)).toBe(SECRET);
    const changed = await t()
      .db.getRepository(AuditEvent)
      .findOneByOrFail({ organisationId: org.id, type: 'SSO_CONNECTION_CHANGED' });
    expect(JSON.parse(changed.changes!)).toEqual({
      name: { from: 'Corporate', to: 'Renamed' },
      issuer: { from: 'https://login.example.com/tenant', to: 'https://other.example.com' },
    });
  });
});
