import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Role } from '../../../src/shared/roles';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { TestIdp } from './saml-idp';
import { TestApp } from '../test-app';

/** Marks `domain` verified by `org`, as a successful DNS check does (the unique verifiedDomain). */
export async function verifyDomain(t: TestApp, org: Organisation, domain: string): Promise<void> {
  await t.db
    .createQueryBuilder()
    .insert()
    .into('organisation_domains', ['organisationId', 'domain', 'txtValue', 'verifiedDomain', 'verifiedAt'])
    .values({
      organisationId: org.id,
      domain,
      txtValue: 'tax-portal-verification=test',
      verifiedDomain: domain,
      verifiedAt: new Date(),
    })
    .execute();
}

/** An enabled SAML connection of `org` to `idp`, and the SP addresses its responses must name. */
export async function samlConnection(
  t: TestApp,
  org: Organisation,
  idp: TestIdp,
  options: { jit?: boolean } = {},
): Promise<{ c: SsoConnection; audience: string; acsUrl: string }> {
  const repo = t.db.getRepository(SsoConnection);
  const c = await repo.save(
    repo.create({
      organisationId: org.id,
      protocol: 'saml',
      name: `SAML of ${org.name}`,
      enabled: true,
      jitProvisioning: options.jit ?? false,
      defaultRoleId: options.jit ? Role.ANALYST : null,
      samlMetadataXml: idp.metadataXml,
      samlEntityId: idp.entityId,
      samlSsoUrl: idp.ssoUrl,
      samlSloUrl: idp.sloUrl ?? null,
      samlCertificates: [/<ds:X509Certificate>([^<]+)</.exec(idp.metadataXml)![1]],
    }),
  );
  return {
    c,
    audience: `${t.config.publicUrl}/auth/saml/${c.id}/metadata`,
    acsUrl: `${t.config.publicUrl}/auth/saml/${c.id}/acs`,
  };
}
