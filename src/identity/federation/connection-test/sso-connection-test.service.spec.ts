import { AuditEvent } from '../../../platform/audit/entities/audit-event.entity';
import { User } from '../../../platform/database/entities/user.entity';
import { Role } from '../../../shared/roles';
import { SSO_LIMITS, SSO_MESSAGES } from '../../../shared/identity/sso';
import { createOidcConnection, createOrganisation, createUser } from '../../../../test/utils/factories';
import { callerOf, refusalOf, SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { verifyDomain } from '../../../../test/utils/identity-providers/sso';
import { SsoIdentity } from '../entities/sso-identity.entity';
import { ProviderRefusal } from '../connectors/provider-refusal';
import { SsoConnectionTestService } from './sso-connection-test.service';

describe.each(SERVICE_DATABASES)('SsoConnectionTestService on %s', (database) => {
  const t = serviceApp(database);
  const tests = () => t().app.get(SsoConnectionTestService);
  const client = { ip: '203.0.113.1', userAgent: 'browser' };
  let seq = 0;
  const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

  /** An organisation with a verified domain, a site admin, and a disabled connection (tests come before enabling). */
  async function organisation() {
    const org = await createOrganisation(t());
    const domain = `t${uniq()}.example`;
    await verifyDomain(t(), org, domain);
    const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
    const c = await createOidcConnection(t(), org, {
      name: 'New IdP',
      enabled: false,
      jitProvisioning: true,
      defaultRoleId: Role.VIEWER,
    });
    return { org, domain, admin, caller: callerOf(admin), c };
  }
  const ticketOf = (url: string) => decodeURIComponent(new URL(url, 'http://x').searchParams.get('test')!);
  const keyOf = (page: string) => new URL(page, 'http://x').searchParams.get('ssoTest')!;

  it("keeps what the provider sent and a real sign-in's verdict for the tester only, changing nothing", async () => {
    const { org, domain, admin, caller, c } = await organisation();
    const { url } = await tests().begin(caller, c.id);
    expect(url).toMatch(new RegExp(`^/auth/sso/${c.id}\\?test=`));
    const ticket = tests().readTicket(ticketOf(url), c.id);
    expect(ticket).toEqual({ sub: admin.id, returnTo: '/users/sso' });
    const email = `new-${uniq()}@${domain}`;
    const page = await tests().record(
      c,
      ticket,
      { identity: { subject: 's-1', email, claims: { sub: 's-1', email, groups: ['a', 'b'], empty: null } } },
      client,
    );
    expect(page).toMatch(new RegExp(`^/users/sso\\?connection=${c.id}&ssoTest=`));
    const result = await tests().result(caller, c.id, keyOf(page));
    expect(result).toMatchObject({
      ok: true,
      outcome: 'CREATES_ACCOUNT',
      message: SSO_MESSAGES.TEST_CREATES_ACCOUNT(email),
      claims: [
        { name: 'sub', value: 's-1' },
        { name: 'email', value: email },
        { name: 'groups', value: '["a","b"]' },
      ],
    });
    expect(await t().db.getRepository(User).countBy({ email })).toBe(0);
    expect(await t().db.getRepository(SsoIdentity).countBy({ connectionId: c.id })).toBe(0);
    expect(
      await t().db.getRepository(AuditEvent).countBy({ organisationId: org.id, type: 'SSO_CONNECTION_TESTED' }),
    ).toBe(1);

    const colleague = callerOf(await createUser(t(), org, { roleId: Role.SITE_ADMIN }));
    expect(await refusalOf(tests().result(colleague, c.id, keyOf(page)))).toMatchObject({ status: 404 });
    const stranger = (await organisation()).caller;
    expect(await refusalOf(tests().result(stranger, c.id, keyOf(page)))).toMatchObject({ status: 404 });
    expect(await refusalOf(tests().begin(stranger, c.id))).toMatchObject({ status: 404 });
  });

  it("shows a failed round trip's technical reason to the tester", async () => {
    const { caller, c } = await organisation();
    const ticket = tests().readTicket(ticketOf((await tests().begin(caller, c.id)).url), c.id);
    const page = await tests().record(
      c,
      ticket,
      { error: new ProviderRefusal('unexpected JWT "aud" claim value') },
      client,
    );
    expect(await tests().result(caller, c.id, keyOf(page))).toMatchObject({
      ok: false,
      outcome: 'FAILED',
      message: `${SSO_MESSAGES.TEST_ROUND_TRIP_FAILED} ${SSO_MESSAGES.FAILED}`,
      detail: 'unexpected JWT "aud" claim value',
      claims: [],
    });
  });

  it('refuses a ticket of another connection or not a test ticket, and cuts long claims', async () => {
    const { caller, c } = await organisation();
    const other = await organisation();
    const ticket = ticketOf((await tests().begin(caller, c.id)).url);
    expect(() => tests().readTicket(ticket, other.c.id)).toThrow(SSO_MESSAGES.TEST_EXPIRED);
    expect(() => tests().readTicket('forged.ticket.value', c.id)).toThrow(SSO_MESSAGES.TEST_EXPIRED);

    const many = Object.fromEntries(
      Array.from({ length: SSO_LIMITS.TEST_CLAIMS_MAX + 5 }, (_, i) => [`c${i}`, 'x'.repeat(2000)]),
    );
    const page = await tests().record(
      c,
      tests().readTicket(ticket, c.id),
      { identity: { subject: 's', email: 'x@elsewhere.example', claims: many } },
      client,
    );
    const result = await tests().result(caller, c.id, keyOf(page));
    expect(result.outcome).toBe('REFUSED');
    expect(result.claims).toHaveLength(SSO_LIMITS.TEST_CLAIMS_MAX);
    expect(result.claims[0].value.length).toBe(SSO_LIMITS.TEST_CLAIM_VALUE_MAX);
    expect(await refusalOf(tests().result(caller, c.id, 'not-a-key'))).toMatchObject({ status: 404 });
  });
});
