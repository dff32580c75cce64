import { AuditEvent } from '../../platform/audit/entities/audit-event.entity';
import { OutboxMessage } from '../../platform/mail/entities/outbox-message.entity';
import { DOMAIN_RECORD_GRACE_DAYS, domainTxtName } from '../../shared/identity/domains';
import { Role } from '../../shared/roles';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { startDnsServer, TestDnsServer } from '../../../test/utils/servers/dns-server';
import { SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { DomainRecheckService } from './domain-recheck.service';
import { OrganisationDomain } from './entities/organisation-domain.entity';
import { VerifiedDomainsService } from './verified-domains.service';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(async () => {
  await dns.close();
});

describe.each(SERVICE_DATABASES)('DomainRecheckService on %s', (database) => {
  const t = serviceApp(database, {
    get DNS_SERVERS() {
      return dns.address;
    },
    DOMAIN_RECHECK_HOURS: '24',
  } as Record<string, string>);
  const recheck = () => t().app.get(DomainRecheckService);
  const verified = () => t().app.get(VerifiedDomainsService);
  let seq = 0;

  /**
   * A domain verified at `verifiedAt` by a new organisation with a site admin, its record published. Every test
   * runs the check at a moment of its own far from the others', so each sees only its own domain due.
   */
  async function verifiedDomain(verifiedAt: Date) {
    const org = await createOrganisation(t());
    const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
    const name = `r${Date.now().toString(36)}${(seq++).toString(36)}.example`;
    const repo = t().db.getRepository(OrganisationDomain);
    const row = await repo.save(
      repo.create({
        organisationId: org.id,
        domain: name,
        txtValue: `tax-portal-verification=${name}`,
        verifiedDomain: name,
        verifiedAt,
      }),
    );
    dns.setTxt(domainTxtName(name), [[row.txtValue]]);
    return { org, admin, row };
  }
  const rowOf = (id: number) => t().db.getRepository(OrganisationDomain).findOneByOrFail({ id });
  const eventsOf = (organisationId: number) =>
    t()
      .db.getRepository(AuditEvent)
      .find({ where: { organisationId }, order: { id: 'ASC' } })
      .then((rows) => rows.map((e) => e.type));
  const mailsTo = (to: string) => t().db.getRepository(OutboxMessage).findBy({ to });

  it('looks a verified domain up only once it is due, and leaves a published record alone', async () => {
    const at = new Date(Date.now() - 400 * DAY);
    const { row } = await verifiedDomain(at);
    const asked = () => dns.queries.filter((q) => q === domainTxtName(row.domain)).length;
    await recheck().recheckDue(new Date(at.getTime() + 23 * HOUR));
    expect(asked()).toBe(0);
    await recheck().recheckDue(new Date(at.getTime() + 25 * HOUR));
    expect(asked()).toBe(1);
    expect(await rowOf(row.id)).toMatchObject({ verifiedDomain: row.domain, recordMissingSince: null });
    await recheck().recheckDue(new Date(at.getTime() + 30 * HOUR));
    expect(asked()).toBe(1);
  });

  it('warns once when the record goes missing, keeps trusting it through the grace period, then stops', async () => {
    const at = new Date(Date.now() - 300 * DAY);
    const { org, admin, row } = await verifiedDomain(at);
    dns.removeTxt(domainTxtName(row.domain));
    const missingAt = new Date(at.getTime() + 25 * HOUR);
    await recheck().recheckDue(missingAt);
    expect((await rowOf(row.id)).recordMissingSince).not.toBeNull();
    expect(await eventsOf(org.id)).toEqual(['DOMAIN_RECORD_MISSING']);
    expect(await mailsTo(admin.email)).toHaveLength(1);
    expect(await verified().organisationForVerifiedDomain(row.domain)).toBe(org.id);

    await recheck().recheckDue(new Date(missingAt.getTime() + 2 * DAY));
    expect(await eventsOf(org.id)).toEqual(['DOMAIN_RECORD_MISSING']);
    expect(await verified().organisationForVerifiedDomain(row.domain)).toBe(org.id);

    await recheck().recheckDue(new Date(missingAt.getTime() + DOMAIN_RECORD_GRACE_DAYS * DAY + 2 * DAY));
    expect(await eventsOf(org.id)).toEqual(['DOMAIN_RECORD_MISSING', 'DOMAIN_UNVERIFIED']);
    expect(await verified().organisationForVerifiedDomain(row.domain)).toBeNull();
    expect(await mailsTo(admin.email)).toHaveLength(2);
  });

  it('ends the grace period when the record is published again', async () => {
    const at = new Date(Date.now() - 200 * DAY);
    const { org, row } = await verifiedDomain(at);
    dns.removeTxt(domainTxtName(row.domain));
    await recheck().recheckDue(new Date(at.getTime() + 25 * HOUR));
    dns.setTxt(domainTxtName(row.domain), [[row.txtValue]]);
    const report = await recheck().recheckDue(new Date(at.getTime() + 50 * HOUR));
    expect(report.restored).toBeGreaterThanOrEqual(1);
    expect(await rowOf(row.id)).toMatchObject({ verifiedDomain: row.domain, recordMissingSince: null });
    await recheck().recheckDue(new Date(at.getTime() + (DOMAIN_RECORD_GRACE_DAYS + 3) * DAY));
    expect(await verified().organisationForVerifiedDomain(row.domain)).toBe(org.id);
  });

  it('counts a lookup DNS does not answer for nothing', async () => {
    const at = new Date(Date.now() - 100 * DAY);
    const { org, row } = await verifiedDomain(at);
    dns.failing = true;
    try {
      await recheck().recheckDue(new Date(at.getTime() + 25 * HOUR));
      await recheck().recheckDue(new Date(at.getTime() + (DOMAIN_RECORD_GRACE_DAYS + 3) * DAY));
    } finally {
      dns.failing = false;
    }
    expect(await rowOf(row.id)).toMatchObject({ verifiedDomain: row.domain, recordMissingSince: null });
    expect(await eventsOf(org.id)).toEqual([]);
  });

  it('looks each due domain up once when runs overlap', async () => {
    const at = new Date(Date.now() - 500 * DAY);
    const { org, row } = await verifiedDomain(at);
    dns.removeTxt(domainTxtName(row.domain));
    const asked = () => dns.queries.filter((q) => q === domainTxtName(row.domain)).length;
    const when = new Date(at.getTime() + 25 * HOUR);
    await Promise.all([recheck().recheckDue(when), recheck().recheckDue(when), recheck().recheckDue(when)]);
    expect(asked()).toBe(1);
    expect(await eventsOf(org.id)).toEqual(['DOMAIN_RECORD_MISSING']);
  });
});
