import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { DomainRecheckService } from '../../../src/identity/domains/domain-recheck.service';
import { OrganisationDomain } from '../../../src/identity/domains/entities/organisation-domain.entity';
import { VerifiedDomainsService } from '../../../src/identity/domains/verified-domains.service';
import { OutboxMessage } from '../../../src/platform/mail/entities/outbox-message.entity';
import { formatMailDateTime } from '../../../src/shared/display-formats';
import { DOMAIN_RECORD_GRACE_DAYS } from '../../../src/shared/identity/domains';
import { Role } from '../../../src/shared/roles';
import { startDnsServer, TestDnsServer } from '../../utils/servers/dns-server';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * A verified domain stays verified only while it publishes its TXT record: looked up again every
 * DOMAIN_RECHECK_HOURS, a missing record starts a grace period, at whose end the domain is no longer verified.
 */
describe('periodic re-verification of verified domains', () => {
  let dns: TestDnsServer;
  let t: TestApp;
  let recheck: DomainRecheckService;
  let verified: VerifiedDomainsService;
  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({ DNS_SERVERS: dns.address, DOMAIN_RECHECK_HOURS: '24' });
    recheck = t.app.get(DomainRecheckService);
    verified = t.app.get(VerifiedDomainsService);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  let n = 0;
  /** An organisation with a site admin, and a domain it claimed, published and verified just now. */
  async function verifiedDomain(): Promise<{ org: number; admin: string; auth: LoggedIn['auth']; domain: Claimed }> {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const { auth } = await login(t, admin.email);
    const name = `r${Date.now().toString(36)}${n++}.example.com`;
    const domain = (await request(t.http).post('/api/domains').set(auth).send({ domain: name }).expect(201))
      .body as Claimed;
    dns.setTxt(domain.txtName, [[domain.txtValue]]);
    await request(t.http).post(`/api/domains/${domain.id}/verify`).set(auth).expect(200);
    return { org: org.id, admin: admin.email, auth, domain };
  }
  type Claimed = { id: number; domain: string; txtName: string; txtValue: string };

  const row = (id: number) => t.db.getRepository(OrganisationDomain).findOneByOrFail({ id });
  const events = (type: string, organisationId: number) =>
    t.db.getRepository(AuditEvent).findBy({ type: type as AuditEvent['type'], organisationId });
  const mailsTo = (to: string) => t.db.getRepository(OutboxMessage).findBy({ to });
  /** Runs the check as the timer would at `at`, and returns what it did to this domain's row. */
  async function runAt(at: number) {
    await recheck.recheckDue(new Date(at));
  }

  it('leaves a domain whose record is still published verified, and looks it up again only when due', async () => {
    const { domain, org } = await verifiedDomain();
    const start = Date.now();
    const queries = () => dns.queries.filter((q) => q === domain.txtName).length;
    const before = queries();
    await runAt(start + HOUR);
    expect(queries()).toBe(before);
    await runAt(start + 25 * HOUR);
    expect(queries()).toBe(before + 1);
    expect(await row(domain.id)).toMatchObject({ verifiedDomain: domain.domain, recordMissingSince: null });
    expect((await row(domain.id)).checkedAt).not.toBeNull();
    // Checked a moment ago: not due again until a day later.
    await runAt(start + 26 * HOUR);
    expect(queries()).toBe(before + 1);
    expect(await verified.organisationForEmail(`x@${domain.domain}`)).toBe(org);
  });

  it('warns the administrators when the record goes missing, keeps the domain for the grace period, then stops trusting it', async () => {
    const { domain, org, admin, auth } = await verifiedDomain();
    const start = Date.now();
    dns.removeTxt(domain.txtName);
    await runAt(start + 25 * HOUR);
    const missing = await row(domain.id);
    expect(missing.verifiedDomain).toBe(domain.domain);
    expect(missing.recordMissingSince).not.toBeNull();
    expect(await events('DOMAIN_RECORD_MISSING', org)).toHaveLength(1);
    const warning = await mailsTo(admin);
    expect(warning.map((m) => m.subject)).toContainEqual(expect.stringContaining(`${domain.domain} is missing`));
    const missingMail = warning.find((m) => m.subject.includes('is missing'))!.text;
    expect(missingMail).toContain(domain.txtValue);
    // The end of the grace period as the page shows it, in the deployment's zone, named.
    const graceEnd = new Date(missing.recordMissingSince!).getTime() + DOMAIN_RECORD_GRACE_DAYS * 86_400_000;
    expect(missingMail).toMatch(/again before \w{3}, \d{1,2} \w{3} \d{4}, \d{1,2}:\d\d:\d\d (AM|PM) AE[DS]T,/);
    expect(missingMail).toContain(`again before ${formatMailDateTime(graceEnd, 'Australia/Sydney')},`);
    // Still verified during the grace period: sign-in keeps trusting it, the list says since when it is missing.
    expect(await verified.organisationForEmail(`x@${domain.domain}`)).toBe(org);
    const listed = (await request(t.http).get('/api/domains').set(auth).expect(200)).body as Array<{
      id: number;
      verified: boolean;
      recordMissingSince: string | null;
    }>;
    expect(listed.find((d) => d.id === domain.id)).toMatchObject({
      verified: true,
      recordMissingSince: expect.any(String),
    });
    // A later check within the grace period changes nothing and warns no one again.
    await runAt(start + 50 * HOUR);
    expect((await row(domain.id)).verifiedDomain).toBe(domain.domain);
    expect(await events('DOMAIN_RECORD_MISSING', org)).toHaveLength(1);

    await runAt(start + 25 * HOUR + DOMAIN_RECORD_GRACE_DAYS * DAY + HOUR);
    expect(await row(domain.id)).toMatchObject({ verifiedDomain: null, verifiedAt: null, recordMissingSince: null });
    expect(await events('DOMAIN_UNVERIFIED', org)).toHaveLength(1);
    expect((await mailsTo(admin)).map((m) => m.subject)).toContainEqual(
      expect.stringContaining(`${domain.domain} is no longer verified`),
    );
    expect(await verified.organisationForEmail(`x@${domain.domain}`)).toBeNull();
    // Verified again the usual way once the record is back.
    dns.setTxt(domain.txtName, [[domain.txtValue]]);
    await request(t.http).post(`/api/domains/${domain.id}/verify`).set(auth).expect(200);
    expect(await verified.organisationForEmail(`x@${domain.domain}`)).toBe(org);
  });

  it('ends the grace period when the record is published again, at the next check or at once with Verify', async () => {
    const a = await verifiedDomain();
    const b = await verifiedDomain();
    const start = Date.now();
    dns.removeTxt(a.domain.txtName);
    dns.removeTxt(b.domain.txtName);
    await runAt(start + 25 * HOUR);
    expect((await row(a.domain.id)).recordMissingSince).not.toBeNull();
    expect((await row(b.domain.id)).recordMissingSince).not.toBeNull();
    dns.setTxt(a.domain.txtName, [[a.domain.txtValue]]);
    dns.setTxt(b.domain.txtName, [[b.domain.txtValue]]);
    await runAt(start + 50 * HOUR);
    expect(await row(a.domain.id)).toMatchObject({ verifiedDomain: a.domain.domain, recordMissingSince: null });
    // Verify looks the record up again for a domain whose record was found missing.
    await t.db.getRepository(OrganisationDomain).update(b.domain.id, { recordMissingSince: new Date(start) });
    await request(t.http).post(`/api/domains/${b.domain.id}/verify`).set(b.auth).expect(200);
    expect(await row(b.domain.id)).toMatchObject({ verifiedDomain: b.domain.domain, recordMissingSince: null });
  });

  it('counts a DNS server that does not answer for nothing', async () => {
    const { domain, org } = await verifiedDomain();
    dns.failing = true;
    try {
      await runAt(Date.now() + 25 * HOUR);
    } finally {
      dns.failing = false;
    }
    expect(await row(domain.id)).toMatchObject({ verifiedDomain: domain.domain, recordMissingSince: null });
    expect(await events('DOMAIN_RECORD_MISSING', org)).toHaveLength(0);
  });

  it('looks each due domain up once when several instances run the check at the same moment', async () => {
    const { domain, org } = await verifiedDomain();
    dns.removeTxt(domain.txtName);
    const at = new Date(Date.now() + 25 * HOUR);
    const before = dns.queries.filter((q) => q === domain.txtName).length;
    await Promise.all([recheck.recheckDue(at), recheck.recheckDue(at), recheck.recheckDue(at)]);
    expect(dns.queries.filter((q) => q === domain.txtName).length - before).toBe(1);
    expect(await events('DOMAIN_RECORD_MISSING', org)).toHaveLength(1);
  });
});
