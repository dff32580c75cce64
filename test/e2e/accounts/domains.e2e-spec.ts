import { createSocket } from 'node:dgram';
import request from 'supertest';
import { OrganisationDomain } from '../../../src/identity/domains/entities/organisation-domain.entity';
import { VerifiedDomainsService } from '../../../src/identity/domains/verified-domains.service';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Role } from '../../../src/shared/roles';
import { startDnsServer, TestDnsServer } from '../../utils/servers/dns-server';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';

const READERS = ['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'];
const MANAGERS = ['E_SUPPORT', 'SITE_ADMIN'];

/** A UDP port nothing listens on: a DNS server that is down. */
async function closedUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** docs/product-rules.md §6: claim a domain, prove it with a DNS TXT record, list and remove; one organisation per domain. */
describe('Verified domains', () => {
  let dns: TestDnsServer;
  let t: TestApp;
  let m: RoleMatrix;
  let verified: VerifiedDomainsService;
  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({ DNS_SERVERS: dns.address });
    m = await createRoleMatrix(t);
    verified = t.app.get(VerifiedDomainsService);
    // Nine sign-ins (argon2) on a shared, loaded machine.
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const http = () => request(t.http);
  const siteAdmin = () => m.byRole.SITE_ADMIN.session.auth;
  let n = 0;
  const fresh = () => `d${Date.now().toString(36)}${n++}.example.com`;
  const claim = async (auth = siteAdmin(), domain = fresh(), query = '') =>
    (await http().post(`/api/domains${query}`).set(auth).send({ domain }).expect(201)).body;
  /** Publishes the claimed domain's TXT value, as its owner would in their DNS zone. */
  const publish = (d: { txtName: string; txtValue: string }) => dns.setTxt(d.txtName, [[d.txtValue]]);
  const rows = () => t.db.getRepository(OrganisationDomain).find();
  const auditOf = (type: string, organisationId: number) =>
    t.db.getRepository(AuditEvent).findBy({ type: type as AuditEvent['type'], organisationId });
  /** E-Support names the organisation it works on; everyone else works on their own. */
  const orgQuery = (code: string) => (code === 'E_SUPPORT' ? `?organisationId=${m.org.id}` : '');

  it('refuses every route without a token (401)', async () => {
    await http().get('/api/domains').expect(401);
    await http().post('/api/domains').send({ domain: 'example.com' }).expect(401);
    await http().post('/api/domains/1/verify').expect(401);
    await http().delete('/api/domains/1').expect(401);
  });

  it('POST /api/domains: E-Support (any organisation) and site admins; the TXT record to publish', async () => {
    const statuses = await statusesFor(m, (a, code) =>
      http()
        .post(`/api/domains${orgQuery(code)}`)
        .set(a.session.auth)
        .send({ domain: fresh() }),
    );
    expect(statuses).toEqual(expected(MANAGERS, 201));
    const domain = fresh();
    const res = await http().post('/api/domains').set(siteAdmin()).send({ domain }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      organisationId: m.org.id,
      domain,
      verified: false,
      verifiedAt: null,
      checkedAt: null,
      recordMissingSince: null,
      txtName: `_tax-portal-verification.${domain}`,
      txtValue: expect.stringMatching(/^tax-portal-verification=[A-Za-z0-9_-]{32}$/),
      createdAt: expect.any(String),
    });
    // Each claim has its own value: one cannot be guessed from another.
    expect((await claim()).txtValue).not.toBe(res.body.txtValue);
    const events = await auditOf('DOMAIN_CLAIMED', m.org.id);
    expect(events.find((e) => e.summary === `Domain ${domain} added`)).toMatchObject({
      actorId: m.byRole.SITE_ADMIN.user.id,
    });
    // Support's claim lands in the organisation it named, recorded with support as the actor.
    const bySupport = await claim(m.byRole.E_SUPPORT.session.auth, fresh(), `?organisationId=${m.org.id}`);
    expect(bySupport.organisationId).toBe(m.org.id);
    expect((await auditOf('DOMAIN_CLAIMED', m.org.id)).map((e) => e.actorId)).toContain(m.byRole.E_SUPPORT.user.id);
  });

  it('GET /api/domains: support, site admins and administrators read; each organisation sees its own only', async () => {
    const mine = await claim();
    const theirs = await claim(m.otherOrgAdmin.session.auth);
    const statuses = await statusesFor(m, (a, code) =>
      http()
        .get(`/api/domains${orgQuery(code)}`)
        .set(a.session.auth),
    );
    expect(statuses).toEqual(expected(READERS, 200));
    const listed = (await http().get('/api/domains').set(m.byRole.ADMINISTRATOR.session.auth).expect(200)).body;
    expect(listed.map((d: { id: number }) => d.id)).toContain(mine.id);
    expect(listed.map((d: { id: number }) => d.id)).not.toContain(theirs.id);
    expect(listed.find((d: { id: number }) => d.id === mine.id)).toEqual(mine);
    const other = (await http().get('/api/domains').set(m.otherOrgAdmin.session.auth).expect(200)).body;
    expect(other.map((d: { id: number }) => d.id)).toEqual([theirs.id]);
    // Only support may name another organisation.
    expectErrorBody(await http().get(`/api/domains?organisationId=${m.org.id}`).set(m.otherOrgAdmin.session.auth), 404);
    const bySupport = await http()
      .get(`/api/domains?organisationId=${m.otherOrg.id}`)
      .set(m.byRole.E_SUPPORT.session.auth)
      .expect(200);
    expect(bySupport.body.map((d: { id: number }) => d.id)).toEqual([theirs.id]);
    expectErrorBody(
      await http().get('/api/domains?organisationId=2147483647').set(m.byRole.E_SUPPORT.session.auth),
      404,
    );
  });

  it.each([
    ['an empty value', ''],
    ['a single label', 'localhost'],
    ['an e-mail address', 'someone@example.com'],
    ['a URL', 'https://example.com'],
    ['a path', 'example.com/login'],
    ['a Unicode name with a path', 'bücher.example/login'],
    ['an IP address', '192.168.1.10'],
    ['a leading hyphen', '-bad.example.com'],
    ['an underscore', 'under_score.example.com'],
    ['a label of 64 characters', `${'a'.repeat(64)}.com`],
    ['254 characters', `${'a.'.repeat(125)}abcd`],
    ['a wildcard', '*.example.com'],
    ['a number', 42],
    ['null', null],
  ])('refuses %s as a domain (400), storing nothing', async (_label, domain) => {
    const before = (await rows()).length;
    const res = await http().post('/api/domains').set(siteAdmin()).send({ domain });
    expectErrorBody(res, 400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect((await rows()).length).toBe(before);
  });

  it('refuses unknown fields and bad organisation ids (400)', async () => {
    expectErrorBody(await http().post('/api/domains').set(siteAdmin()).send({ domain: fresh(), verified: true }), 400);
    expectErrorBody(await http().post('/api/domains').set(siteAdmin()).send({}), 400);
    for (const q of ['abc', '0', '-1', '1.5', '2147483648'])
      expectErrorBody(await http().get(`/api/domains?organisationId=${q}`).set(m.byRole.E_SUPPORT.session.auth), 400);
    for (const id of ['abc', '0', '99999999999'])
      expectErrorBody(await http().post(`/api/domains/${id}/verify`).set(siteAdmin()), 400);
  });

  it('stores names as DNS holds them: trimmed, lower case, no final dot, Unicode as xn--', async () => {
    const base = fresh();
    expect((await claim(siteAdmin(), `  ${base.toUpperCase()}. `)).domain).toBe(base);
    const idn = await claim(siteAdmin(), `bücher-${n++}.example`);
    expect(idn.domain).toMatch(/^xn--bcher-.*\.example$/);
    expect(idn.txtName).toBe(`_tax-portal-verification.${idn.domain}`);
  });

  it('refuses a second claim of one domain by one organisation (409); another organisation may claim it', async () => {
    const domain = fresh();
    await claim(siteAdmin(), domain);
    const again = await http().post('/api/domains').set(siteAdmin()).send({ domain: domain.toUpperCase() });
    expectErrorBody(again, 409);
    expect(again.body.code).toBe('DOMAIN_ALREADY_CLAIMED');
    await claim(m.otherOrgAdmin.session.auth, domain);
  });

  it('POST /api/domains/{id}/verify: verified when the TXT record holds the value', async () => {
    const d = await claim();
    publish(d);
    expect((await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin()).expect(200)).body).toEqual({
      verified: true,
    });
    const listed = (await http().get('/api/domains').set(siteAdmin()).expect(200)).body;
    expect(listed.find((x: { id: number }) => x.id === d.id)).toMatchObject({
      verified: true,
      verifiedAt: expect.any(String),
    });
    expect(await verified.isVerified(m.org.id, d.domain)).toBe(true);
    expect(await verified.isVerified(m.otherOrg.id, d.domain)).toBe(false);
    expect(await verified.organisationForVerifiedDomain(d.domain.toUpperCase())).toBe(m.org.id);
    expect(await verified.organisationForEmail(`someone@${d.domain}`)).toBe(m.org.id);
    expect(await verified.organisationForEmail('someone@unclaimed.example.com')).toBeNull();
    expect(await auditOf('DOMAIN_VERIFIED', m.org.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ summary: `Domain ${d.domain} verified` })]),
    );
    // Verifying again is a no-op that says so (the record may since have been taken down).
    dns.removeTxt(d.txtName);
    await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin()).expect(200);
  });

  it('reads a TXT value split into several character strings, among other TXT records at the name', async () => {
    const d = await claim();
    const value: string = d.txtValue;
    dns.setTxt(d.txtName, [['v=spf1 -all'], [value.slice(0, 10), value.slice(10)]]);
    await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin()).expect(200);
  });

  it.each([
    ['no record at the name', 'NO_RECORD', (_d: { txtName: string }) => undefined],
    ['the name without a TXT record', 'NO_RECORD', (d: { txtName: string }) => dns.setTxt(d.txtName, [])],
    [
      'a wrong value',
      'WRONG_VALUE',
      (d: { txtName: string }) => dns.setTxt(d.txtName, [['tax-portal-verification=nope']]),
    ],
    [
      "another claim's value",
      'WRONG_VALUE',
      (d: { txtName: string; txtValue: string }) => dns.setTxt(d.txtName, [[`${d.txtValue}x`]]),
    ],
  ])('answers 400 DOMAIN_NOT_VERIFIED for %s, and stays unverified', async (_label, reason, prepare) => {
    const d = await claim();
    prepare(d);
    const res = await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin());
    expectErrorBody(res, 400);
    expect(res.body).toMatchObject({ code: 'DOMAIN_NOT_VERIFIED', reason });
    expect(await verified.isVerified(m.org.id, d.domain)).toBe(false);
  });

  it('answers 400 DOMAIN_NOT_VERIFIED (DNS_UNAVAILABLE) when the resolver fails, and verifies once it is back', async () => {
    const d = await claim();
    publish(d);
    dns.failing = true;
    try {
      const res = await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin());
      expectErrorBody(res, 400);
      expect(res.body).toMatchObject({ code: 'DOMAIN_NOT_VERIFIED', reason: 'DNS_UNAVAILABLE' });
    } finally {
      dns.failing = false;
    }
    await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin()).expect(200);
  });

  it('asks the resolvers DNS_SERVERS names', async () => {
    const d = await claim();
    const before = dns.queries.length;
    await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin());
    expect(dns.queries.slice(before)).toContain(d.txtName);
  });

  it('verify: E-Support and site admins; another organisation’s domain is a 404', async () => {
    const statuses = await statusesFor(m, async (a) => {
      const d = await claim();
      publish(d);
      return http().post(`/api/domains/${d.id}/verify`).set(a.session.auth);
    });
    expect(statuses).toEqual(expected(MANAGERS, 200));
    const d = await claim();
    publish(d);
    expectErrorBody(await http().post(`/api/domains/${d.id}/verify`).set(m.otherOrgAdmin.session.auth), 404);
    expect(await verified.isVerified(m.org.id, d.domain)).toBe(false);
  });

  it('keeps a verified domain to its organisation: another may not claim it (409 DOMAIN_TAKEN)', async () => {
    const d = await claim();
    publish(d);
    await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin()).expect(200);
    const res = await http().post('/api/domains').set(m.otherOrgAdmin.session.auth).send({ domain: d.domain });
    expectErrorBody(res, 409);
    expect(res.body.code).toBe('DOMAIN_TAKEN');
  });

  it('lets one organisation win when several verify one domain in parallel', async () => {
    const domain = fresh();
    const orgs = [m.org, m.otherOrg];
    const admins: LoggedIn[] = [siteAdmin(), m.otherOrgAdmin.session.auth].map((auth) => ({ auth }) as LoggedIn);
    for (let i = 0; i < 4; i++) {
      const org = await createOrganisation(t);
      const user = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      orgs.push(org);
      admins.push(await login(t, user.email));
    }
    const claims = await Promise.all(admins.map((a) => claim(a.auth, domain)));
    // Every organisation's value is published (a zone edited by several hands): each check passes on its own.
    dns.setTxt(
      claims[0].txtName,
      claims.map((c) => [c.txtValue]),
    );
    const results = await Promise.all(
      claims.flatMap((c, i) => [0, 1].map(() => http().post(`/api/domains/${c.id}/verify`).set(admins[i].auth))),
    );
    const ok = results.filter((r) => r.status === 200);
    const taken = results.filter((r) => r.status === 409);
    expect(ok.length + taken.length).toBe(results.length);
    taken.forEach((r) => expect(r.body.code).toBe('DOMAIN_TAKEN'));
    const winners = (await rows()).filter((r) => r.verifiedDomain === domain);
    expect(winners).toHaveLength(1);
    // Both of the winner's parallel verifies say verified; one audit event.
    const winnerIndex = claims.findIndex((c) => c.id === winners[0].id);
    expect(results.slice(winnerIndex * 2, winnerIndex * 2 + 2).map((r) => r.status)).toEqual([200, 200]);
    expect(ok).toHaveLength(2);
    const events = await auditOf('DOMAIN_VERIFIED', orgs[winnerIndex].id);
    expect(events.filter((e) => e.summary === `Domain ${domain} verified`)).toHaveLength(1);
    expect(await verified.organisationForVerifiedDomain(domain)).toBe(orgs[winnerIndex].id);
  });

  it('holds one claim per domain and organisation, and the domain limit, under parallel claims', async () => {
    const org = await createOrganisation(t);
    const admin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
    const domain = fresh();
    const same = await Promise.all(
      Array.from({ length: 6 }, () => http().post('/api/domains').set(admin.auth).send({ domain })),
    );
    expect(same.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (let i = 0; i < 47; i++) await claim(admin.auth);
    const burst = await Promise.all(
      Array.from({ length: 6 }, () => http().post('/api/domains').set(admin.auth).send({ domain: fresh() })),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(2);
    burst.filter((r) => r.status !== 201).forEach((r) => expect(r.body.code).toBe('DOMAIN_LIMIT'));
    expect(await t.db.getRepository(OrganisationDomain).countBy({ organisationId: org.id })).toBe(50);
  });

  it('DELETE /api/domains/{id}: E-Support and site admins; the domain is free for another organisation after', async () => {
    const statuses = await statusesFor(m, async (a) => {
      const d = await claim();
      return http().delete(`/api/domains/${d.id}`).set(a.session.auth);
    });
    expect(statuses).toEqual(expected(MANAGERS, 200));
    const d = await claim();
    publish(d);
    await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin()).expect(200);
    expectErrorBody(await http().delete(`/api/domains/${d.id}`).set(m.otherOrgAdmin.session.auth), 404);
    expect(await verified.isVerified(m.org.id, d.domain)).toBe(true);
    expect((await http().delete(`/api/domains/${d.id}`).set(siteAdmin()).expect(200)).body).toEqual({ success: true });
    expect(await verified.organisationForVerifiedDomain(d.domain)).toBeNull();
    expectErrorBody(await http().delete(`/api/domains/${d.id}`).set(siteAdmin()), 404);
    expectErrorBody(await http().post(`/api/domains/${d.id}/verify`).set(siteAdmin()), 404);
    const removed = await auditOf('DOMAIN_REMOVED', m.org.id);
    const changes = removed.find((e) => e.summary === `Domain ${d.domain} removed`)?.changes;
    expect(JSON.parse(changes ?? 'null')).toEqual({
      verified: { from: true, to: false },
    });
    const theirs = await claim(m.otherOrgAdmin.session.auth, d.domain);
    dns.setTxt(theirs.txtName, [[theirs.txtValue]]);
    await http().post(`/api/domains/${theirs.id}/verify`).set(m.otherOrgAdmin.session.auth).expect(200);
    expect(await verified.organisationForVerifiedDomain(d.domain)).toBe(m.otherOrg.id);
  });

  it('answers DNS_UNAVAILABLE when the configured DNS server is down', async () => {
    const down = await createTestApp({ DNS_SERVERS: `127.0.0.1:${await closedUdpPort()}` });
    try {
      const org = await createOrganisation(down);
      const admin = await login(down, (await createUser(down, org, { roleId: Role.SITE_ADMIN })).email);
      const d = (await request(down.http).post('/api/domains').set(admin.auth).send({ domain: fresh() }).expect(201))
        .body;
      const res = await request(down.http).post(`/api/domains/${d.id}/verify`).set(admin.auth);
      expectErrorBody(res, 400);
      expect(res.body).toMatchObject({ code: 'DOMAIN_NOT_VERIFIED', reason: 'DNS_UNAVAILABLE' });
    } finally {
      await down.close();
    }
  });
});
