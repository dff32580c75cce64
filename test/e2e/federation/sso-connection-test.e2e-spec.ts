import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { Role } from '../../../src/shared/roles';
import { SSO_MESSAGES, SsoTestResult } from '../../../src/shared/identity/sso';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { SsoIdentity } from '../../../src/identity/federation/entities/sso-identity.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { ResponseOptions, startTestIdp, TestIdp } from '../../utils/identity-providers/saml-idp';
import { verifyDomain } from '../../utils/identity-providers/sso';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';

let serial = 0;
const uniqueDomain = () => `try${++serial}-${Date.now().toString(36)}.example`;

/**
 * 'Test connection' on the Single Sign-On page: a real round trip through the connection whose end shows the
 * administrator what the provider sent and what a real sign-in would do, and changes nothing.
 */
describe('testing an SSO connection (SAML; OIDC in sso-oidc-connections)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  let idp: TestIdp;

  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
    idp = await startTestIdp('tryit');
  }, 180_000);
  afterAll(() => t?.close());

  async function connectionOf(org: Organisation, options: { enabled?: boolean; jit?: boolean } = {}) {
    return t.db.getRepository(SsoConnection).save(
      t.db.getRepository(SsoConnection).create({
        organisationId: org.id,
        protocol: 'saml',
        name: 'Trial ADFS',
        enabled: options.enabled ?? false,
        jitProvisioning: options.jit ?? false,
        defaultRoleId: options.jit ? Role.ANALYST : null,
        samlMetadataXml: idp.metadataXml,
        samlEntityId: idp.entityId,
        samlSsoUrl: idp.ssoUrl,
        samlSloUrl: null,
        samlCertificates: [/<ds:X509Certificate>([^<]+)</.exec(idp.metadataXml)![1]],
      }),
    );
  }

  /** The admin presses 'Test connection'; the browser goes to the IdP and comes back with `answer`. */
  async function runTest(
    tester: LoggedIn,
    c: SsoConnection,
    answer: Partial<ResponseOptions> & { nameId: string },
  ): Promise<{ location: string; result: request.Response }> {
    const started = await request(t.http).post(`/api/sso-connections/${c.id}/test`).set(tester.auth).expect(201);
    expect(started.body.url).toMatch(new RegExp(`^/auth/sso/${c.id}\\?test=`));
    const toIdp = await request(t.http).get(started.body.url).expect(302);
    expect(toIdp.headers.location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    const req = idp.readRequest(toIdp.headers.location);
    // The tester authenticates afresh, whatever session the IdP holds.
    expect(req.forceAuthn).toBe(true);
    expect(req.relayState).toBeTruthy();
    const back = await request(t.http)
      .post(`/auth/saml/${c.id}/acs`)
      .type('form')
      .send({
        SAMLResponse: idp.respond({
          inResponseTo: req.id,
          acsUrl: req.acsUrl,
          audience: req.issuer,
          ...answer,
        }),
        RelayState: req.relayState,
      })
      .expect(302);
    // A test signs nobody in.
    expect(([] as string[]).concat(back.headers['set-cookie'] ?? []).some((s) => /^refreshToken=[^;]/.test(s))).toBe(
      false,
    );
    const url = new URL(back.headers.location, 'http://portal.test');
    expect(url.searchParams.get('connection')).toBe(String(c.id));
    const key = url.searchParams.get('ssoTest')!;
    const result = await request(t.http).get(`/api/sso-connections/${c.id}/test-results/${key}`).set(tester.auth);
    return { location: back.headers.location, result };
  }

  it('is started by site admins and E-Support only, and never for another organisation', async () => {
    const c = await connectionOf(m.org);
    expect(
      await statusesFor(m, (a) => request(t.http).post(`/api/sso-connections/${c.id}/test`).set(a.session.auth)),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 201));
    const res = await request(t.http).post(`/api/sso-connections/${c.id}/test`).set(m.otherOrgAdmin.session.auth);
    expectErrorBody(res, 404);
    await request(t.http).post(`/api/sso-connections/${c.id}/test`).expect(401);
    expectErrorBody(
      await request(t.http).post('/api/sso-connections/abc/test').set(m.byRole.SITE_ADMIN.session.auth),
      400,
    );
  });

  it('runs a real round trip through a disabled connection and reports the claims and the account it would sign in, changing nothing', async () => {
    const org = await createOrganisation(t);
    const domain = uniqueDomain();
    await verifyDomain(t, org, domain);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const tester = await login(t, admin.email);
    const person = await createUser(t, org, { email: `paul@${domain}`, passwordHash: null });
    const c = await connectionOf(org);
    const sessionsBefore = await t.db.getRepository(Session).countBy({ userId: person.id });

    const { location, result } = await runTest(tester, c, { nameId: 'persistent-paul', email: person.email });
    expect(location.startsWith('/users/sso?')).toBe(true);
    expect(result.status).toBe(200);
    const body = result.body as SsoTestResult;
    expect(body).toMatchObject({
      connectionId: c.id,
      connectionName: 'Trial ADFS',
      protocol: 'saml',
      ok: true,
      outcome: 'SIGNS_IN',
      message: SSO_MESSAGES.TEST_SIGNS_IN(person.email),
    });
    expect(body.claims).toEqual(
      expect.arrayContaining([
        { name: 'nameID', value: 'persistent-paul' },
        { name: 'issuer', value: idp.entityId },
        { name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', value: person.email },
      ]),
    );
    // Nothing linked, no session opened, the connection still disabled; the test itself audited.
    expect(await t.db.getRepository(SsoIdentity).countBy({ connectionId: c.id })).toBe(0);
    expect(await t.db.getRepository(Session).countBy({ userId: person.id })).toBe(sessionsBefore);
    expect((await t.db.getRepository(SsoConnection).findOneByOrFail({ id: c.id })).enabled).toBe(false);
    const audit = await t.db
      .getRepository(AuditEvent)
      .findBy({ type: 'SSO_CONNECTION_TESTED', organisationId: org.id });
    expect(audit).toHaveLength(1);
    expect(audit[0].actorId).toBe(admin.id);
  });

  it('shows the result only to the person who ran the test', async () => {
    const org = await createOrganisation(t);
    const domain = uniqueDomain();
    await verifyDomain(t, org, domain);
    const [a, b] = [
      await createUser(t, org, { roleId: Role.SITE_ADMIN }),
      await createUser(t, org, { roleId: Role.SITE_ADMIN }),
    ];
    const c = await connectionOf(org);
    const { location, result } = await runTest(await login(t, a.email), c, { nameId: `x@${domain}` });
    expect(result.status).toBe(200);
    const key = new URL(location, 'http://portal.test').searchParams.get('ssoTest')!;
    const other = await login(t, b.email);
    expectErrorBody(await request(t.http).get(`/api/sso-connections/${c.id}/test-results/${key}`).set(other.auth), 404);
    expectErrorBody(
      await request(t.http).get(`/api/sso-connections/${c.id}/test-results/${key}`).set(m.otherOrgAdmin.session.auth),
      404,
    );
    expectErrorBody(
      await request(t.http).get(`/api/sso-connections/${c.id}/test-results/not-a-key`).set(other.auth),
      404,
    );
  });

  it('says what a real sign-in would do: refuse an unknown e-mail, or create its account (just-in-time), without creating it', async () => {
    const org = await createOrganisation(t);
    const domain = uniqueDomain();
    await verifyDomain(t, org, domain);
    const tester = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
    const newcomer = `nina@${domain}`;

    const off = await runTest(tester, await connectionOf(org), { nameId: 'nina', email: newcomer });
    expect(off.result.body).toMatchObject({ ok: true, outcome: 'REFUSED', message: SSO_MESSAGES.NO_ACCOUNT });

    const on = await runTest(tester, await connectionOf(org, { jit: true }), { nameId: 'nina', email: newcomer });
    expect(on.result.body).toMatchObject({
      ok: true,
      outcome: 'CREATES_ACCOUNT',
      message: SSO_MESSAGES.TEST_CREATES_ACCOUNT(newcomer),
    });
    expect(await t.db.getRepository(User).countBy({ email: newcomer })).toBe(0);

    // An e-mail of a domain the organisation has not verified.
    const foreign = await runTest(tester, await connectionOf(org), { nameId: 'eve', email: 'eve@elsewhere.example' });
    expect(foreign.result.body).toMatchObject({
      ok: true,
      outcome: 'REFUSED',
      message: SSO_MESSAGES.DOMAIN_NOT_VERIFIED,
    });
  });

  it("reports a response that fails the protocol's checks, with the technical reason", async () => {
    const org = await createOrganisation(t);
    const tester = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
    const c = await connectionOf(org);
    const forged = await runTest(tester, c, { nameId: 'mallory', foreignKey: true });
    expect(forged.result.body).toMatchObject({ ok: false, outcome: 'FAILED', claims: [] });
    expect((forged.result.body as SsoTestResult).detail).toMatch(/signature/i);
    const stale = await runTest(tester, c, { nameId: 'mallory', notBefore: -900, notOnOrAfter: -600 });
    expect(stale.result.body).toMatchObject({ ok: false, outcome: 'FAILED' });
    expect((stale.result.body as SsoTestResult).detail).toBeTruthy();
  });

  it('returns E-Support to the organisation it works on', async () => {
    const org = await createOrganisation(t);
    const c = await connectionOf(org);
    const { location, result } = await runTest(m.byRole.E_SUPPORT.session, c, { nameId: 'someone' });
    expect(location.startsWith(`/users/sso?organisationId=${org.id}&connection=${c.id}&ssoTest=`)).toBe(true);
    expect(result.status).toBe(200);
  });

  it('refuses a start without a valid ticket of this connection', async () => {
    const org = await createOrganisation(t);
    const [c1, c2] = [await connectionOf(org), await connectionOf(org)];
    const started = await request(t.http)
      .post(`/api/sso-connections/${c1.id}/test`)
      .set(m.byRole.E_SUPPORT.session.auth)
      .expect(201);
    const ticket = new URL(started.body.url, 'http://portal.test').searchParams.get('test')!;
    for (const url of [`/auth/sso/${c2.id}?test=${encodeURIComponent(ticket)}`, `/auth/sso/${c1.id}?test=forged`]) {
      const res = await request(t.http).get(url).expect(302);
      expect(decodeURIComponent(res.headers.location)).toBe(`/logIn?ssoError=${SSO_MESSAGES.TEST_EXPIRED}`);
    }
    // A disabled connection still refuses an ordinary sign-in.
    const plain = await request(t.http).get(`/auth/sso/${c1.id}`).expect(302);
    expect(decodeURIComponent(plain.headers.location)).toBe(`/logIn?ssoError=${SSO_MESSAGES.DISABLED}`);
  });
});
