import { createOrganisation } from '../../../test/utils/factories';
import { SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { verifyDomain } from '../../../test/utils/identity-providers/sso';
import { OrganisationDomain } from './entities/organisation-domain.entity';
import { VerifiedDomainsService } from './verified-domains.service';

describe.each(SERVICE_DATABASES)('VerifiedDomainsService on %s', (database) => {
  const t = serviceApp(database);
  const verified = () => t().app.get(VerifiedDomainsService);
  let seq = 0;
  const domainName = () => `v${Date.now().toString(36)}${(seq++).toString(36)}.example`;

  it('names the organisation that verified a domain, whatever case or final dot it is asked in', async () => {
    const org = await createOrganisation(t());
    const name = domainName();
    await verifyDomain(t(), org, name);
    expect(await verified().organisationForVerifiedDomain(name)).toBe(org.id);
    expect(await verified().organisationForVerifiedDomain(`${name.toUpperCase()}.`)).toBe(org.id);
    expect(await verified().organisationForEmail(`Ann.Lee@${name.toUpperCase()}`)).toBe(org.id);
    expect(await verified().isVerified(org.id, name)).toBe(true);
  });

  it('trusts no claim that is not verified, no sub-domain and no other organisation', async () => {
    const owner = await createOrganisation(t());
    const claimant = await createOrganisation(t());
    const name = domainName();
    await verifyDomain(t(), owner, name);
    const claimed = domainName();
    await t()
      .db.getRepository(OrganisationDomain)
      .insert({ organisationId: claimant.id, domain: claimed, txtValue: 'x', verifiedDomain: null });
    expect(await verified().organisationForVerifiedDomain(claimed)).toBeNull();
    expect(await verified().isVerified(claimant.id, claimed)).toBe(false);
    expect(await verified().isVerified(claimant.id, name)).toBe(false);
    expect(await verified().organisationForEmail(`ann@mail.${name}`)).toBeNull();
    expect(await verified().organisationForEmail('no-at-sign')).toBeNull();
  });

  it('reads through the transaction it is given, seeing a verification not yet committed', async () => {
    const org = await createOrganisation(t());
    const name = domainName();
    const seen = await t().db.transaction(async (tx) => {
      await tx.getRepository(OrganisationDomain).insert({
        organisationId: org.id,
        domain: name,
        txtValue: 'x',
        verifiedDomain: name,
        verifiedAt: new Date(),
      });
      return verified().organisationForVerifiedDomain(name, tx);
    });
    expect(seen).toBe(org.id);
  });
});
