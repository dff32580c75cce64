import { AuditEvent } from '../../platform/audit/entities/audit-event.entity';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { domainTxtName, MAX_DOMAINS_PER_ORGANISATION } from '../../shared/identity/domains';
import { ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { startDnsServer, TestDnsServer } from '../../../test/utils/servers/dns-server';
import { callerOf, refusalOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { verifyDomain } from '../../../test/utils/identity-providers/sso';
import { DomainsService } from './domains.service';
import { OrganisationDomain } from './entities/organisation-domain.entity';

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(async () => {
  await dns.close();
});

describe.each(SERVICE_DATABASES)('DomainsService on %s', (database) => {
  // The resolver reads DNS_SERVERS when it is built, after the server above has its port.
  const t = serviceApp(database, {
    get DNS_SERVERS() {
      return dns.address;
    },
  } as Record<string, string>);
  const domains = () => t().app.get(DomainsService);
  const client = { ip: '203.0.113.7', userAgent: 'jest' };
  let seq = 0;
  const domainName = () => `d${Date.now().toString(36)}${(seq++).toString(36)}.example`;

  async function siteAdminOf(org?: Organisation) {
    const o = org ?? (await createOrganisation(t()));
    return { org: o, caller: callerOf(await createUser(t(), o, { roleId: Role.SITE_ADMIN })) };
  }

  const auditOf = (organisationId: number, type: string) =>
    t()
      .db.getRepository(AuditEvent)
      .countBy({ organisationId, type: type as AuditEvent['type'] });

  describe('claim', () => {
    it('gives the record to publish, unverified, and leaves one audit event', async () => {
      const { org, caller } = await siteAdminOf();
      const name = domainName();
      const item = await domains().claim(caller, name, client);
      expect(item).toMatchObject({
        organisationId: org.id,
        domain: name,
        verified: false,
        txtName: domainTxtName(name),
      });
      expect(item.txtValue).toMatch(/^tax-portal-verification=.{20,}$/);
      expect(await auditOf(org.id, 'DOMAIN_CLAIMED')).toBe(1);
    });

    it('refuses a domain the organisation already claimed, and one another organisation verified', async () => {
      const { caller } = await siteAdminOf();
      const name = domainName();
      await domains().claim(caller, name, client);
      expect(await refusalOf(domains().claim(caller, name, client))).toEqual({
        status: 409,
        code: ERROR_CODES.DOMAIN_ALREADY_CLAIMED,
      });
      const other = await createOrganisation(t());
      const taken = domainName();
      await verifyDomain(t(), other, taken);
      expect(await refusalOf(domains().claim(caller, taken, client))).toEqual({
        status: 409,
        code: ERROR_CODES.DOMAIN_TAKEN,
      });
    });

    it('lets two organisations claim one unverified domain (the DNS proof decides)', async () => {
      const name = domainName();
      const a = await siteAdminOf();
      const b = await siteAdminOf();
      await domains().claim(a.caller, name, client);
      await expect(domains().claim(b.caller, name, client)).resolves.toMatchObject({ domain: name });
    });

    it(`holds at most ${MAX_DOMAINS_PER_ORGANISATION} domains per organisation under parallel claims`, async () => {
      const { org, caller } = await siteAdminOf();
      const repo = t().db.getRepository(OrganisationDomain);
      const present = MAX_DOMAINS_PER_ORGANISATION - 2;
      for (let i = 0; i < present; i++)
        await repo.insert({ organisationId: org.id, domain: domainName(), txtValue: 'x', verifiedDomain: null });
      const results = await Promise.all(
        Array.from({ length: 6 }, () => refusalOf(domains().claim(caller, domainName(), client))),
      );
      expect(results.filter((r) => r === null)).toHaveLength(2);
      expect(results.filter((r) => r?.code === ERROR_CODES.DOMAIN_LIMIT)).toHaveLength(4);
      expect(await repo.countBy({ organisationId: org.id })).toBe(MAX_DOMAINS_PER_ORGANISATION);
    });

    it('keeps one row when the same domain is claimed in parallel', async () => {
      const { org, caller } = await siteAdminOf();
      const name = domainName();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => refusalOf(domains().claim(caller, name, client))),
      );
      expect(results.filter((r) => r === null)).toHaveLength(1);
      expect(results.filter((r) => r !== null)).toEqual(
        Array(4).fill({ status: 409, code: ERROR_CODES.DOMAIN_ALREADY_CLAIMED }),
      );
      expect(await t().db.getRepository(OrganisationDomain).countBy({ organisationId: org.id, domain: name })).toBe(1);
    });

    it("is another organisation's only for E-Support", async () => {
      const target = await createOrganisation(t());
      const { caller: siteAdmin } = await siteAdminOf();
      expect(await refusalOf(domains().claim(siteAdmin, domainName(), client, target.id))).toEqual({
        status: 404,
        code: ERROR_CODES.NOT_FOUND,
      });
      const vendor = await createOrganisation(t());
      const support = callerOf(await createUser(t(), vendor, { roleId: Role.E_SUPPORT }));
      await expect(domains().claim(support, domainName(), client, target.id)).resolves.toMatchObject({
        organisationId: target.id,
      });
      expect(await domains().list(support, target.id)).toHaveLength(1);
    });
  });

  describe('verify', () => {
    it('refuses without the record, with another value, and when DNS does not answer; verifies with it', async () => {
      const { org, caller } = await siteAdminOf();
      const item = await domains().claim(caller, domainName(), client);
      const reasonOf = (p: Promise<unknown>) =>
        p.then(
          () => 'verified',
          (e: { getResponse(): { code: string; reason: string } }) =>
            `${e.getResponse().code} ${e.getResponse().reason}`,
        );
      expect(await reasonOf(domains().verify(caller, item.id, client))).toBe('DOMAIN_NOT_VERIFIED NO_RECORD');
      dns.setTxt(item.txtName, [['tax-portal-verification=someone-else']]);
      expect(await reasonOf(domains().verify(caller, item.id, client))).toBe('DOMAIN_NOT_VERIFIED WRONG_VALUE');
      dns.setTxt(item.txtName, [['v=spf1 -all'], [item.txtValue]]);
      dns.failing = true;
      try {
        expect(await reasonOf(domains().verify(caller, item.id, client))).toBe('DOMAIN_NOT_VERIFIED DNS_UNAVAILABLE');
      } finally {
        dns.failing = false;
      }
      expect(await reasonOf(domains().verify(caller, item.id, client))).toBe('verified');
      expect((await domains().list(caller))[0]).toMatchObject({ id: item.id, verified: true });
      expect(await auditOf(org.id, 'DOMAIN_VERIFIED')).toBe(1);
    });

    it('verifies a domain for one organisation only, and parallel verifies of one row audit once', async () => {
      const name = domainName();
      const a = await siteAdminOf();
      const b = await siteAdminOf();
      const itemA = await domains().claim(a.caller, name, client);
      const itemB = await domains().claim(b.caller, name, client);
      dns.setTxt(domainTxtName(name), [[itemA.txtValue], [itemB.txtValue]]);
      const results = await Promise.all(
        Array.from({ length: 4 }, () => refusalOf(domains().verify(a.caller, itemA.id, client))),
      );
      expect(results).toEqual([null, null, null, null]);
      expect(await auditOf(a.org.id, 'DOMAIN_VERIFIED')).toBe(1);
      expect(await refusalOf(domains().verify(b.caller, itemB.id, client))).toEqual({
        status: 409,
        code: ERROR_CODES.DOMAIN_TAKEN,
      });
      expect(await auditOf(b.org.id, 'DOMAIN_VERIFIED')).toBe(0);
    });

    it("is a 404 on another organisation's domain, and asks DNS nothing", async () => {
      const owner = await siteAdminOf();
      const item = await domains().claim(owner.caller, domainName(), client);
      const stranger = await siteAdminOf();
      const asked = dns.queries.length;
      expect(await refusalOf(domains().verify(stranger.caller, item.id, client))).toEqual({
        status: 404,
        code: ERROR_CODES.NOT_FOUND,
      });
      expect(await refusalOf(domains().remove(stranger.caller, item.id, client))).toEqual({
        status: 404,
        code: ERROR_CODES.NOT_FOUND,
      });
      expect(dns.queries.length).toBe(asked);
      expect(await domains().list(owner.caller)).toHaveLength(1);
    });
  });

  describe('remove', () => {
    it('frees a verified domain for another organisation, and a second remove is a 404', async () => {
      const name = domainName();
      const a = await siteAdminOf();
      const item = await domains().claim(a.caller, name, client);
      dns.setTxt(item.txtName, [[item.txtValue]]);
      await domains().verify(a.caller, item.id, client);
      const results = await Promise.all([
        refusalOf(domains().remove(a.caller, item.id, client)),
        refusalOf(domains().remove(a.caller, item.id, client)),
      ]);
      expect(results).toContainEqual(null);
      expect(results).toContainEqual({ status: 404, code: ERROR_CODES.NOT_FOUND });
      expect(await auditOf(a.org.id, 'DOMAIN_REMOVED')).toBe(1);
      const b = await siteAdminOf();
      await expect(domains().claim(b.caller, name, client)).resolves.toMatchObject({ domain: name });
    });
  });
});
