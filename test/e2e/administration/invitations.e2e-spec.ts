import request from 'supertest';
import { IsNull } from 'typeorm';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { OrganisationDomain } from '../../../src/identity/domains/entities/organisation-domain.entity';
import { Invitation } from '../../../src/administration/invitations/entities/invitation.entity';
import { systemInvitationClock } from '../../../src/administration/invitations/invitation-clock';
import { formatMailDateTime } from '../../../src/shared/display-formats';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, fromResponse, login, PASSWORD } from '../../utils/factories';
import { lastMailTo, linkIn, outboxDelivered } from '../../utils/outbox';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { startTestIdp } from '../../utils/identity-providers/saml-idp';
import { samlConnection, verifyDomain } from '../../utils/identity-providers/sso';
import { ageSession } from '../../utils/step-up';
import { createTestApp, TestApp } from '../../utils/test-app';

const NEW_PASSWORD = 'Blue-Lantern-Orbit-42';
let seq = 0;
const address = (tag = 'p') => `${tag}-${Date.now().toString(36)}${(seq++).toString(36)}@invited.test`;
/** Each public call from an address of its own: the per-address throttle of accept is not what these tests test. */
let ipSeq = 1;
const fromNewAddress = () => ({ 'X-Forwarded-For': `10.9.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}` });

/** Invitations (docs/api.md, 'Invitations'): invite, bulk, list, resend, withdraw, read a link, accept it. */
describe('Invitations', () => {
  let t: TestApp;
  let m: RoleMatrix;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    m = await createRoleMatrix(t);
  }, 120_000);
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const as = (code: string) => m.byRole[code].session.auth;
  const invite = (auth: Record<string, string>, body: object, organisationId?: number) =>
    request(t.http)
      .post(`/api/invitations${organisationId ? `?organisationId=${organisationId}` : ''}`)
      .set(auth)
      .send(body);
  const tokenOf = async (email: string) => {
    await outboxDelivered(t.dataDir, 60_000);
    const link = linkIn(await lastMailTo(t.dataDir, email));
    expect(link).toMatch(/^http:\/\/portal\.test\/invite\?token=[\w-]{43}$/);
    return new URL(link!).searchParams.get('token')!;
  };
  const accept = (token: string, body: object = {}) =>
    request(t.http)
      .post('/api/invitations/accept')
      .set(fromNewAddress())
      .send({ token, firstName: 'Ada', lastName: 'Lovelace', password: NEW_PASSWORD, acceptToS: true, ...body });
  const preview = (token: string) =>
    request(t.http)
      .get(`/api/invitations/by-token/${encodeURIComponent(token)}`)
      .set(fromNewAddress());

  async function invited(org: Organisation, roleId = Role.ANALYST, admin = false) {
    const auth = org.id === m.org.id ? as('SITE_ADMIN') : m.otherOrgAdmin.session.auth;
    const email = address();
    const res = await invite(auth, { email, roleId, admin });
    expect(res.status).toBe(201);
    return { id: res.body.id as number, email, token: await tokenOf(email) };
  }

  it('lets support, site admins and administrators invite, each with the roles the account-action rule gives them', async () => {
    const statuses = await statusesByRole(m, (a) => invite(a.session.auth, { email: address(), roleId: Role.ANALYST }));
    expect(statuses).toEqual({
      // E-Support invites only site admins, of other organisations (its own default organisation is the vendor's).
      E_SUPPORT: 403,
      SITE_ADMIN: 201,
      ADMINISTRATOR: 201,
      STANDARD_ADMIN: 403,
      PORTFOLIO_MANAGER: 403,
      ANALYST: 403,
      VIEWER: 403,
      CA_VIEWER: 403,
    });
    const email = address();
    const res = await invite(as('SITE_ADMIN'), { email, roleId: Role.VIEWER, expiresInDays: 3 });
    expect(res.body).toMatchObject({ roleId: Role.VIEWER, admin: false, status: 'pending' });
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeLessThanOrEqual(3 * 86_400_000);
    // The e-mail gives the end as every page and e-mail writes a moment, in the deployment's zone, named.
    await outboxDelivered(t.dataDir, 60_000);
    const text = (await lastMailTo(t.dataDir, email))!.text;
    expect(text).toMatch(/works once and until \w{3}, \d{1,2} \w{3} \d{4}, \d{1,2}:\d\d:\d\d (AM|PM) AE[DS]T\. /);
    expect(text).toContain(`until ${formatMailDateTime(res.body.expiresAt, 'Australia/Sydney')}.`);
    // Support: a site admin of another organisation, named with ?organisationId=.
    const support = await invite(as('E_SUPPORT'), { email: address(), roleId: Role.SITE_ADMIN }, m.org.id);
    expect(support.status).toBe(201);
    expect((await invite(as('E_SUPPORT'), { email: address(), roleId: Role.ANALYST }, m.org.id)).status).toBe(403);
    expect((await invite(as('E_SUPPORT'), { email: address(), roleId: Role.E_SUPPORT })).status).toBe(403);
    // Site admins and administrators: the four assignable roles; only a site admin grants the Administrator role.
    expect((await invite(as('SITE_ADMIN'), { email: address(), roleId: Role.SITE_ADMIN })).status).toBe(403);
    expect((await invite(as('ADMINISTRATOR'), { email: address(), roleId: 4, admin: true })).status).toBe(403);
    expect((await invite(as('SITE_ADMIN'), { email: address(), roleId: 4, admin: true })).status).toBe(201);
    const audit = await t.db
      .getRepository(AuditEvent)
      .findOneBy({ type: 'INVITATION_CREATED', actorId: m.byRole.SITE_ADMIN.user.id });
    expect(audit?.organisationId).toBe(m.org.id);
  });

  it("refuses another organisation's invitations and organisation to everyone but support", async () => {
    const theirs = await invited(m.otherOrg);
    for (const code of ['SITE_ADMIN', 'ADMINISTRATOR']) {
      expect((await invite(as(code), { email: address(), roleId: 6 }, m.otherOrg.id)).status).toBe(404);
      expect((await request(t.http).get(`/api/invitations?organisationId=${m.otherOrg.id}`).set(as(code))).status).toBe(
        404,
      );
      expect((await request(t.http).post(`/api/invitations/${theirs.id}/resend`).set(as(code))).status).toBe(404);
      expect((await request(t.http).delete(`/api/invitations/${theirs.id}`).set(as(code))).status).toBe(404);
    }
    const mine = await request(t.http).get('/api/invitations').set(as('SITE_ADMIN'));
    expect(mine.body.items.map((i: { email: string }) => i.email)).not.toContain(theirs.email);
    const support = await request(t.http).get(`/api/invitations?organisationId=${m.otherOrg.id}`).set(as('E_SUPPORT'));
    expect(support.status).toBe(200);
    expect(support.body.items.map((i: { email: string }) => i.email)).toContain(theirs.email);
    // Support acts only on site admins' invitations (the account-action rule).
    expect((await request(t.http).delete(`/api/invitations/${theirs.id}`).set(as('E_SUPPORT'))).status).toBe(403);
    for (const code of ['STANDARD_ADMIN', 'ANALYST', 'VIEWER', 'CA_VIEWER', 'PORTFOLIO_MANAGER'])
      expect((await request(t.http).get('/api/invitations').set(as(code))).status).toBe(403);
  });

  it('answers bad input with a 400 in the error body', async () => {
    const bad: object[] = [
      { email: 'not-an-address', roleId: 6 },
      { email: address(), roleId: 99 },
      { email: address(), roleId: '6' },
      { email: address(), roleId: Role.ADMINISTRATOR },
      { email: address(), roleId: 6, admin: true },
      { email: address(), roleId: 6, expiresInDays: 0 },
      { email: address(), roleId: 6, expiresInDays: 31 },
      { email: address(), roleId: 6, expiresInDays: 2.5 },
      { email: address(), roleId: 6, unknown: 1 },
      { roleId: 6 },
    ];
    for (const body of bad) {
      const res = await invite(as('SITE_ADMIN'), body);
      expect([body, res.status]).toEqual([body, 400]);
      expectErrorBody(res, 400);
    }
    expect((await request(t.http).get('/api/invitations?status=open').set(as('SITE_ADMIN'))).status).toBe(400);
    expect((await request(t.http).post('/api/invitations/abc/resend').set(as('SITE_ADMIN'))).status).toBe(400);
    expect((await accept('x', { acceptToS: false })).status).toBe(400);
    expect((await accept('x', { password: 'short' })).status).toBe(400);
    expect((await accept('x', { firstName: '' })).status).toBe(400);
    expect((await preview('x'.repeat(500))).body.code).toBe('INVITATION_INVALID');
  });

  it('refuses an address with an account or an open invitation, without revealing other organisations', async () => {
    const member = await createUser(t, m.org);
    const dup = await invite(as('SITE_ADMIN'), { email: member.email.toUpperCase(), roleId: 6 });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DUPLICATE_EMAIL');
    const stranger = await createUser(t, m.otherOrg);
    const unavailable = await invite(as('SITE_ADMIN'), { email: stranger.email, roleId: 6 });
    expect(unavailable.body.code).toBe('EMAIL_UNAVAILABLE');
    const open = await invited(m.org);
    const again = await invite(as('ADMINISTRATOR'), { email: open.email, roleId: 7 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVITATION_EXISTS');
    // Parallel invitations of one address: one is made.
    const email = address();
    const parallel = await Promise.all(
      Array.from({ length: 4 }, () => invite(as('SITE_ADMIN'), { email, roleId: Role.ANALYST })),
    );
    expect(parallel.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('shows the link, accepts it once, creates the account with the invited role and signs it in', async () => {
    const { id, email, token } = await invited(m.org, Role.PORTFOLIO_MANAGER);
    const seen = await preview(token);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      organisationName: m.org.name,
      email,
      inviterName: 'Test User',
      expiresAt: expect.any(String),
      sso: false,
    });
    expect((await accept(token, { password: 'password123' })).body.code).toBe('PASSWORD_BREACHED');
    const res = await accept(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, accessToken: expect.any(String) });
    const session = fromResponse(res);
    expect(session.cookie).toMatch(/^refreshToken=/);
    const me = await request(t.http).get('/api/users/current').set(session.auth);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, firstName: 'Ada', lastName: 'Lovelace', isMFAEnforced: true });
    // Enforced MFA: the product's enrolment comes first.
    expect((await request(t.http).get('/api/invitations').set(session.auth)).status).toBe(403);
    const user = await t.db.getRepository(User).findOneByOrFail({ email });
    expect(user).toMatchObject({ roleId: Role.PORTFOLIO_MANAGER, isAdministrator: false, organisationId: m.org.id });
    // The password signs in from now on.
    expect(
      (await request(t.http).post('/auth/login').send({ username: email, password: NEW_PASSWORD, acceptToS: true }))
        .status,
    ).not.toBe(401);
    // Used: the link says so, and a second accept creates nothing.
    expect((await preview(token)).body.code).toBe('INVITATION_INVALID');
    const second = await accept(token);
    expect(second.status).toBe(404);
    expect(second.body.code).toBe('INVITATION_INVALID');
    const list = await request(t.http).get('/api/invitations?status=accepted').set(as('SITE_ADMIN'));
    expect(list.body.items.find((i: { id: number }) => i.id === id)).toMatchObject({ status: 'accepted' });
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'INVITATION_ACCEPTED', targetId: user.id })).toBe(1);
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'USER_CREATED', targetId: user.id })).toBe(1);
  });

  it("applies the organisation's minimum password length as every password set does; a refused password leaves the link usable", async () => {
    const org = await createOrganisation(t, { passwordMinLength: 14 });
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const adminS = await login(t, admin.email);
    const email = address('min');
    expect((await invite(adminS.auth, { email, roleId: Role.ANALYST })).status).toBe(201);
    const token = await tokenOf(email);

    const tooShort = 'Blue-Lan-4';
    const short = await accept(token, { password: tooShort });
    expectErrorBody(short, 400);
    // The profile's password change in the same organisation answers the same, naming its own field.
    const profile = await request(t.http)
      .patch('/api/users/updatePassword')
      .set(adminS.auth)
      .send({ currentPassword: PASSWORD, userPassword: tooShort });
    expectErrorBody(profile, 400);
    expect(profile.body).toMatchObject({ code: 'WEAK_PASSWORD', errors: [{ field: 'userPassword' }] });
    const message = profile.body.message as string;
    expect(message).toContain('14');
    expect(short.body).toEqual({
      ...profile.body,
      errors: [{ field: 'password', message }],
    });
    expect(await t.db.getRepository(User).countBy({ email })).toBe(0);
    expect((await preview(token)).status).toBe(200);

    const res = await accept(token, { password: 'Blue-Lantern-4' });
    expect(res.status).toBe(200);
    expect(await t.db.getRepository(User).findOneByOrFail({ email })).toMatchObject({ organisationId: org.id });
  });

  it('expires links after their days, by the clock', async () => {
    const res = await invite(as('SITE_ADMIN'), { email: address(), roleId: 6, expiresInDays: 2 });
    const token = await tokenOf(res.body.email);
    const later = (days: number) =>
      jest.spyOn(systemInvitationClock, 'now').mockReturnValue(new Date(Date.now() + days * 86_400_000));
    later(1.9);
    expect((await preview(token)).status).toBe(200);
    later(2.01);
    expect((await preview(token)).body.code).toBe('INVITATION_INVALID');
    expect((await accept(token)).body.code).toBe('INVITATION_INVALID');
    const expired = await request(t.http).get('/api/invitations?status=expired&pageSize=1000').set(as('SITE_ADMIN'));
    expect(expired.body.items.map((i: { id: number }) => i.id)).toContain(res.body.id);
    // Resending an expired invitation opens it again with a new link, as long as the first.
    const resent = await request(t.http).post(`/api/invitations/${res.body.id}/resend`).set(as('ADMINISTRATOR'));
    expect(resent.status).toBe(200);
    expect(resent.body.status).toBe('pending');
    jest.restoreAllMocks();
    expect((await preview(await tokenOf(res.body.email))).status).toBe(200);
  });

  it('resend replaces the link: the old one stops working', async () => {
    const { id, email, token } = await invited(m.org);
    const res = await request(t.http).post(`/api/invitations/${id}/resend`).set(as('ADMINISTRATOR'));
    expect(res.status).toBe(200);
    const fresh = await tokenOf(email);
    expect(fresh).not.toBe(token);
    expect((await preview(token)).status).toBe(404);
    expect((await accept(token)).body.code).toBe('INVITATION_INVALID');
    expect((await preview(fresh)).status).toBe(200);
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'INVITATION_RESENT' })).toBeGreaterThan(0);
  });

  it('withdraws an invitation: its link stops working, and it cannot be resent or withdrawn again', async () => {
    const { id, token } = await invited(m.org);
    const res = await request(t.http).delete(`/api/invitations/${id}`).set(as('ADMINISTRATOR'));
    expect(res.status).toBe(200);
    expect((await preview(token)).body.code).toBe('INVITATION_INVALID');
    expect((await accept(token)).status).toBe(404);
    expect((await request(t.http).delete(`/api/invitations/${id}`).set(as('SITE_ADMIN'))).body.code).toBe(
      'INVITATION_NOT_OPEN',
    );
    expect((await request(t.http).post(`/api/invitations/${id}/resend`).set(as('SITE_ADMIN'))).status).toBe(409);
    // Parallel withdrawals of one invitation: one withdraws it, the others find it withdrawn.
    const other = await invited(m.org);
    const parallel = await Promise.all(
      Array.from({ length: 3 }, () => request(t.http).delete(`/api/invitations/${other.id}`).set(as('SITE_ADMIN'))),
    );
    expect(parallel.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const revoked = await request(t.http).get('/api/invitations?status=revoked').set(as('SITE_ADMIN'));
    expect(revoked.body.items.map((i: { id: number }) => i.id)).toContain(id);
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'INVITATION_REVOKED' })).toBeGreaterThan(0);
  });

  it('invites from a CSV: invited, skipped and refused rows', async () => {
    const member = await createUser(t, m.org);
    const open = await invited(m.org);
    const fresh = address('bulk');
    const csv = [
      'Email,Role',
      `${fresh},Analyst`,
      `${address('bulk')},VIEWER`,
      `"${address('bulk')}",standard admin`,
      `${member.email},Analyst`,
      `${open.email},Analyst`,
      `${fresh},Viewer`,
      'not-an-address,Analyst',
      `${address('bulk')},Astronaut`,
      `${address('bulk')},Site Admin`,
      '',
    ].join('\r\n');
    const res = await request(t.http)
      .post('/api/invitations/bulk')
      .set(as('ADMINISTRATOR'))
      .set('Content-Type', 'text/csv')
      .send(csv);
    expect(res.status).toBe(200);
    expect(res.body.map((r: { row: number; status: string }) => [r.row, r.status])).toEqual([
      [1, 'invited'],
      [2, 'invited'],
      [3, 'invited'],
      [4, 'skipped'],
      [5, 'skipped'],
      [6, 'skipped'],
      [7, 'refused'],
      [8, 'refused'],
      [9, 'refused'],
    ]);
    expect(res.body[0]).toEqual({ row: 1, email: fresh, status: 'invited' });
    expect(linkIn(await lastMailTo(t.dataDir, fresh))).toContain('/invite?token=');

    for (const body of ['email;role\nx@y.test;Viewer', 'email,role\n']) {
      const r = await request(t.http)
        .post('/api/invitations/bulk')
        .set(as('SITE_ADMIN'))
        .set('Content-Type', 'text/csv')
        .send(body);
      expect(r.status).toBe(400);
    }
    const json = await request(t.http).post('/api/invitations/bulk').set(as('SITE_ADMIN')).send({ email: 'a@b.test' });
    expect(json.status).toBe(400);
    expect(
      (await request(t.http).post('/api/invitations/bulk').set(as('ANALYST')).set('Content-Type', 'text/csv').send(csv))
        .status,
    ).toBe(403);
  }, 120_000);

  it('asks for a recent proof of identity before granting Administrator or Site Admin', async () => {
    const admin = await createUser(t, m.org, { roleId: Role.SITE_ADMIN });
    const session = await login(t, admin.email, PASSWORD);
    await ageSession(t, session, 120);
    const plain = await invite(session.auth, { email: address(), roleId: Role.VIEWER });
    expect(plain.status).toBe(201);
    const flagged = await invite(session.auth, { email: address(), roleId: Role.STANDARD_ADMIN, admin: true });
    expect(flagged.status).toBe(403);
    expect(flagged.body.code).toBe('STEP_UP_REQUIRED');
    const bulk = await request(t.http)
      .post('/api/invitations/bulk')
      .set(session.auth)
      .set('Content-Type', 'text/csv')
      .send(`email,role\n${address()},Administrator`);
    expect(bulk.body.code).toBe('STEP_UP_REQUIRED');
  });

  it('counts seats at acceptance: of parallel accepts at the last seats, exactly the free seats succeed', async () => {
    const org = await createOrganisation(t, { allowedUsersNumber: 3 });
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const auth = (await login(t, admin.email)).auth;
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) {
      const email = address('seat');
      expect((await invite(auth, { email, roleId: Role.ANALYST })).status).toBe(201);
      tokens.push(await tokenOf(email));
    }
    const list = await request(t.http).get('/api/invitations').set(auth);
    expect(list.body.seats).toEqual({ allowedUsers: 3, activeUsers: 1, freeSeats: 2, pendingInvitations: 5 });
    const results = await Promise.all(tokens.map((token) => accept(token)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.code).toBe('USER_LIMIT_REACHED');
    expect(await t.db.getRepository(User).countBy({ organisationId: org.id })).toBe(3);
    // The refused invitations stay open for when a seat is free.
    const after = await request(t.http).get('/api/invitations?status=pending').set(auth);
    expect(after.body.items).toHaveLength(3);
  }, 60_000);

  it('creates one account from two parallel accepts of one link', async () => {
    const { email, token } = await invited(m.org);
    const results = await Promise.all([accept(token), accept(token), accept(token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404]);
    expect(await t.db.getRepository(User).countBy({ email })).toBe(1);
  });

  it('sends an address its organisation signs in through its provider there (sso: true), and refuses a password', async () => {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const auth = (await login(t, admin.email)).auth;
    await t.db.getRepository(OrganisationDomain).insert({
      organisationId: org.id,
      domain: 'sso-invite.test',
      verifiedDomain: 'sso-invite.test',
      txtValue: 'x',
      verifiedAt: new Date(),
    } as Partial<OrganisationDomain>);
    await t.db.getRepository(SsoConnection).insert({
      organisationId: org.id,
      name: 'Corp',
      protocol: 'oidc',
      enabled: true,
      jitProvisioning: false,
      oidcIssuer: 'https://idp.sso-invite.test',
      oidcClientId: 'portal',
    });
    const email = `jo-${seq++}@sso-invite.test`;
    expect((await invite(auth, { email, roleId: Role.ANALYST })).status).toBe(201);
    const token = await tokenOf(email);
    expect((await preview(token)).body.sso).toBe(true);
    const res = await accept(token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('SSO_REQUIRED');
    expect((await preview(token)).status).toBe(200);
    expect(await t.db.getRepository(Invitation).countBy({ email, acceptedAt: IsNull() })).toBe(1);
  });

  it('creates the account at the first sign-in through the provider, with the invited role, even with JIT off', async () => {
    const idp = await startTestIdp('invite');
    const org = await createOrganisation(t);
    const domain = `inv${Date.now().toString(36)}${seq++}.test`;
    await verifyDomain(t, org, domain);
    const s = await samlConnection(t, org, idp);
    expect(s.c.jitProvisioning).toBe(false);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const auth = (await login(t, admin.email)).auth;
    const email = `sam@${domain}`;
    expect((await invite(auth, { email, roleId: Role.STANDARD_ADMIN, admin: true })).status).toBe(201);
    const token = await tokenOf(email);
    expect((await preview(token)).body.sso).toBe(true);
    const signInAs = async (address: string, nameId: string) => {
      const start = await request(t.http).get(`/auth/sso/${s.c.id}`).expect(302);
      const samlResponse = await idp.respond({
        inResponseTo: idp.readRequest(start.headers.location).id,
        acsUrl: s.acsUrl,
        audience: s.audience,
        nameId,
        email: address,
      });
      return request(t.http).post(`/auth/saml/${s.c.id}/acs`).type('form').send({ SAMLResponse: samlResponse });
    };
    // Without an invitation, the connection's JIT being off refuses the address.
    expect((await signInAs(`nobody@${domain}`, 'nobody')).headers.location).toMatch(/^\/logIn\?ssoError=/);
    const res = await signInAs(email, 'persistent-sam');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    const user = await t.db.getRepository(User).findOneByOrFail({ email });
    expect(user).toMatchObject({
      organisationId: org.id,
      roleId: Role.STANDARD_ADMIN,
      isAdministrator: true,
      isSSO: true,
      passwordHash: null,
    });
    expect((await preview(token)).body.code).toBe('INVITATION_INVALID');
    const accepted = await request(t.http).get('/api/invitations?status=accepted').set(auth);
    expect(accepted.body.items.map((i: { email: string }) => i.email)).toEqual([email]);
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'INVITATION_ACCEPTED', targetId: user.id })).toBe(1);
    // The next sign-in finds the account linked; nothing more is created.
    expect((await signInAs(email, 'persistent-sam')).headers.location).toBe('/');
    expect(await t.db.getRepository(User).countBy({ email })).toBe(1);
  }, 60_000);

  // Last: a thousand e-mails make the outbox slow to read for the tests after it.
  it('takes a file of 1,000 rows, and refuses one row more', async () => {
    const many = ['email,role', ...Array.from({ length: 1000 }, (_, i) => `many-${i}-${address('m')},Viewer`)].join(
      '\n',
    );
    const big = await request(t.http)
      .post('/api/invitations/bulk')
      .set(as('SITE_ADMIN'))
      .set('Content-Type', 'text/csv')
      .send(many);
    expect(big.status).toBe(200);
    expect(big.body).toHaveLength(1000);
    expect(big.body.every((r: { status: string }) => r.status === 'invited')).toBe(true);
    const tooMany = `${many}\nmore-${address('m')},Viewer`;
    const refused = await request(t.http)
      .post('/api/invitations/bulk')
      .set(as('SITE_ADMIN'))
      .set('Content-Type', 'text/csv')
      .send(tooMany);
    expect(refused.status).toBe(400);
    expectErrorBody(refused, 400);
  }, 120_000);
});
