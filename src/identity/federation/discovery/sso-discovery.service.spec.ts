import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { OrganisationDomain } from '../../domains/entities/organisation-domain.entity';
import { createOidcConnection, createOrganisation, createUser } from '../../../../test/utils/factories';
import { SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { verifyDomain } from '../../../../test/utils/identity-providers/sso';
import { SsoConnection } from '../entities/sso-connection.entity';
import { SsoDiscoveryService } from './sso-discovery.service';

describe.each(SERVICE_DATABASES)('SsoDiscoveryService on %s', (database) => {
  const t = serviceApp(database);
  const discovery = () => t().app.get(SsoDiscoveryService);
  let seq = 0;
  const domainName = () => `s${Date.now().toString(36)}${(seq++).toString(36)}.example`;

  const connect = (org: Organisation, fields: Partial<SsoConnection> = {}) =>
    createOidcConnection(t(), org, { name: `IdP ${seq++}`, ...fields });

  it("sends an address of a verified domain to its organisation's first enabled connection, with the hint", async () => {
    const org = await createOrganisation(t());
    const name = domainName();
    await verifyDomain(t(), org, name);
    await connect(org, { enabled: false, name: 'Old' });
    const first = await connect(org, { name: 'Corporate' });
    await connect(org, { name: 'Later' });
    expect(await discovery().discover(` Ann+tax@${name}`)).toEqual({
      sso: true,
      url: `/auth/sso/${first.id}?login_hint=${encodeURIComponent(`Ann+tax@${name}`)}`,
      name: 'Corporate',
    });
  });

  it('answers the same whether or not an account holds the address', async () => {
    const org = await createOrganisation(t());
    const name = domainName();
    await verifyDomain(t(), org, name);
    await connect(org);
    const held = await createUser(t(), org, { email: `held@${name}` });
    const a = await discovery().discover(held.email);
    const b = await discovery().discover(`nobody@${name}`);
    expect({ ...a, url: undefined }).toEqual({ ...b, url: undefined });
    expect(a.sso).toBe(true);
  });

  it('answers no provider for an unverified domain, an organisation without an enabled connection, and a sub-domain', async () => {
    const claimant = await createOrganisation(t());
    const claimed = domainName();
    await connect(claimant);
    await t()
      .db.getRepository(OrganisationDomain)
      .insert({ organisationId: claimant.id, domain: claimed, txtValue: 'x', verifiedDomain: null });
    expect(await discovery().discover(`ann@${claimed}`)).toEqual({ sso: false });

    const disabled = await createOrganisation(t());
    const name = domainName();
    await verifyDomain(t(), disabled, name);
    await connect(disabled, { enabled: false });
    expect(await discovery().discover(`ann@${name}`)).toEqual({ sso: false });

    const owner = await createOrganisation(t());
    const parent = domainName();
    await verifyDomain(t(), owner, parent);
    await connect(owner);
    expect(await discovery().discover(`ann@mail.${parent}`)).toEqual({ sso: false });
  });
});
