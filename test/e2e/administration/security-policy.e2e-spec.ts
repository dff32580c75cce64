import { generateSecret } from 'otplib';
import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { SessionLifetimeService } from '../../../src/identity/sessions/session-lifetime.service';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { SIGN_IN_FAILURE_REASONS } from '../../../src/shared/administration/insights';
import { SOCKET_ERRORS } from '../../../src/shared/portal/notifications';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, LoggedIn, login, PASSWORD } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { ageSession, sessionIdOf } from '../../utils/step-up';
import { verifyDomain } from '../../utils/identity-providers/sso';
import { SoftAuthenticator } from '../../utils/identity-providers/soft-authenticator';
import { expected, statusesFor } from '../../utils/users';
import { clockAt } from '../../utils/clock';
import { Answer, callFrom, socketFrom } from '../../utils/from-address';
import { createTestApp, TestApp } from '../../utils/test-app';

const policyPath = (id: number) => `/api/organisations/${id}/security-policy`;
const OTHER_LOOPBACK = '127.0.0.2';

function expectRefused(res: Answer | request.Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.body).toMatchObject({ success: false, statusCode: status });
  expect(typeof res.body.message).toBe('string');
}

describe('An organisation’s security policy', () => {
  let t: TestApp;
  let m: RoleMatrix;
  const siteAdmin = () => m.byRole.SITE_ADMIN;
  const support = () => m.byRole.E_SUPPORT;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());
  afterEach(() => jest.useRealTimers());

  /** A fresh organisation with its site admin and one member, each signed in from 127.0.0.1. */
  async function organisation(fields: Partial<User> = {}) {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const member = await createUser(t, org, { roleId: Role.ANALYST, ...fields });
    return { org, admin, member, adminS: await login(t, admin.email), memberS: await login(t, member.email) };
  }
  const put = (s: LoggedIn, orgId: number, body: object) =>
    request(t.http).put(policyPath(orgId)).set(s.auth).send(body);
  const get = (s: LoggedIn, orgId: number) => request(t.http).get(policyPath(orgId)).set(s.auth);
  const readRow = (orgId: number) => t.db.getRepository(Organisation).findOneByOrFail({ id: orgId });

  describe('the calls and who may make them', () => {
    it('GET: its site admins and administrators, and E-Support; every other role 403; the defaults', async () => {
      expect(await statusesFor(m, ({ session }) => get(session, m.org.id))).toEqual(
        expected(['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'], 200),
      );
      const res = await get(siteAdmin().session, m.org.id);
      expect(res.body).toEqual({
        mfaRequired: false,
        ssoRequired: false,
        allowedIpRanges: [],
        sessionIdleMinutes: null,
        sessionMaxHours: null,
        passwordMinLength: 8,
        selfDeletion: false,
        auditRetentionDays: 365,
        supportAccess: 'approval',
      });
    });

    it('another organisation’s policy is a 404 to its peers, and E-Support reads any', async () => {
      const res = await get(m.otherOrgAdmin.session, m.org.id);
      expectErrorBody(res, 404);
      expect((await get(support().session, m.otherOrg.id)).status).toBe(200);
      expectErrorBody(await put(m.otherOrgAdmin.session, m.org.id, { mfaRequired: true }), 404);
      expectErrorBody(await get(support().session, 2_000_000_000), 404);
      expectErrorBody(await get(siteAdmin().session, 0), 400);
    });

    it('PUT: its site admins and E-Support; administrators and every other role 403; nothing changes', async () => {
      const statuses = await statusesFor(m, ({ session }) => put(session, m.org.id, { passwordMinLength: 9 }));
      expect(statuses).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 200));
      await put(siteAdmin().session, m.org.id, { passwordMinLength: 8 });
      const before = await t.db.getRepository(AuditEvent).countBy({ type: 'SECURITY_POLICY_CHANGED' as never });
      for (const code of ['ADMINISTRATOR', 'STANDARD_ADMIN', 'VIEWER', 'CA_VIEWER']) {
        const res = await put(m.byRole[code].session, m.org.id, { passwordMinLength: 20 });
        expectErrorBody(res, 403);
      }
      expect((await readRow(m.org.id)).passwordMinLength).toBe(8);
      expect(await t.db.getRepository(AuditEvent).countBy({ type: 'SECURITY_POLICY_CHANGED' as never })).toBe(before);
    });

    it('PUT is sensitive: without a recent proof of identity it is 403 STEP_UP_REQUIRED and changes nothing', async () => {
      const { org, adminS } = await organisation();
      await ageSession(t, adminS, 61);
      expectRefused(await put(adminS, org.id, { mfaRequired: true }), 403, 'STEP_UP_REQUIRED');
      expect((await readRow(org.id)).mfaRequired).toBe(false);
    });

    it('a partial body changes only the fields it names; the audit trail has each change’s before and after', async () => {
      const { org, adminS, admin } = await organisation();
      await put(adminS, org.id, { sessionIdleMinutes: 30, passwordMinLength: 12 }).expect(200);
      const res = await put(adminS, org.id, { sessionMaxHours: 24 }).expect(200);
      expect(res.body).toMatchObject({ sessionMaxHours: 24, sessionIdleMinutes: 30, passwordMinLength: 12 });
      const cleared = await put(adminS, org.id, { sessionIdleMinutes: null }).expect(200);
      expect(cleared.body).toMatchObject({ sessionMaxHours: 24, sessionIdleMinutes: null, passwordMinLength: 12 });
      const events = await t.db
        .getRepository(AuditEvent)
        .find({ where: { type: 'SECURITY_POLICY_CHANGED' as never, actorId: admin.id }, order: { id: 'ASC' } });
      expect(events).toHaveLength(3);
      expect(events[0].organisationId).toBe(org.id);
      expect(changesOf(events[0])).toEqual({
        sessionIdleMinutes: { from: null, to: 30 },
        minimumLength: { from: 8, to: 12 },
      });
      expect(changesOf(events[2])).toEqual({ sessionIdleMinutes: { from: 30, to: null } });
    });

    it.each([
      [{ sessionIdleMinutes: 4 }],
      [{ sessionIdleMinutes: 1441 }],
      [{ sessionIdleMinutes: 10.5 }],
      [{ sessionIdleMinutes: '10' }],
      [{ sessionMaxHours: 0 }],
      [{ sessionMaxHours: 721 }],
      [{ passwordMinLength: 7 }],
      [{ passwordMinLength: 51 }],
      [{ passwordMinLength: null }],
      [{ mfaRequired: 'yes' }],
      [{ ssoRequired: null }],
      [{ allowedIpRanges: '10.0.0.0/8' }],
      [{ allowedIpRanges: ['10.0.0.0/33'] }],
      [{ allowedIpRanges: ['10.1'] }],
      [{ allowedIpRanges: ['0x0a.0.0.1/32'] }],
      [{ allowedIpRanges: ['2001:db8::/129'] }],
      [{ allowedIpRanges: ['example.com'] }],
      [{ allowedIpRanges: [42] }],
      [{ allowedIpRanges: Array.from({ length: 101 }, (_, i) => `10.0.${i}.0/24`) }],
      [{ somethingElse: true }],
    ])('refuses %j with 400 in the error body, and changes nothing', async (body) => {
      const before = policyOf(await readRow(m.otherOrg.id));
      const res = await put(support().session, m.otherOrg.id, body);
      expectErrorBody(res, 400);
      expect(policyOf(await readRow(m.otherOrg.id))).toEqual(before);
    });

    it('ranges are kept in their canonical form, single addresses as /32 or /128, without repeats', async () => {
      const { org } = await organisation();
      const res = await put(support().session, org.id, {
        allowedIpRanges: [' 127.0.0.1/32 ', '127.0.0.1', '2001:DB8:0::/32', '::1'],
      }).expect(200);
      expect(res.body.allowedIpRanges).toEqual(['127.0.0.1/32', '2001:db8::/32', '::1/128']);
    });

    it('parallel PUTs apply one after the other: the row holds one request’s pair, and each is audited', async () => {
      const { org, adminS } = await organisation();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          put(adminS, org.id, { passwordMinLength: 10 + i, sessionMaxHours: 10 + i }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      const row = await readRow(org.id);
      expect(row.sessionMaxHours! - 10).toBe(row.passwordMinLength - 10);
      const events = await t.db
        .getRepository(AuditEvent)
        .findBy({ type: 'SECURITY_POLICY_CHANGED' as never, organisationId: org.id });
      expect(events.length).toBe(8);
    });
  });

  describe('allowedIpRanges (the connection’s address; X-Forwarded-For does not count without TRUST_PROXY)', () => {
    it('members’ calls, sign-in and refresh from outside the ranges are 403 IP_NOT_ALLOWED; inside they work', async () => {
      const { org, adminS, member, memberS } = await organisation();
      await put(adminS, org.id, { allowedIpRanges: ['127.0.0.1/32'] }).expect(200);
      const auth = { Authorization: memberS.auth.Authorization };
      expect((await callFrom(t, '127.0.0.1', 'GET', '/api/users/current', { headers: auth })).status).toBe(200);
      expectRefused(
        await callFrom(t, OTHER_LOOPBACK, 'GET', '/api/users/current', { headers: auth }),
        403,
        'IP_NOT_ALLOWED',
      );
      // A forged header changes nothing without TRUST_PROXY.
      expectRefused(
        await callFrom(t, OTHER_LOOPBACK, 'GET', '/api/users/current', {
          headers: { ...auth, 'X-Forwarded-For': '127.0.0.1' },
        }),
        403,
        'IP_NOT_ALLOWED',
      );
      expectRefused(
        await callFrom(t, OTHER_LOOPBACK, 'POST', '/auth/login', {
          body: { username: member.email, password: PASSWORD, acceptToS: true },
        }),
        403,
        'IP_NOT_ALLOWED',
      );
      expectRefused(
        await callFrom(t, OTHER_LOOPBACK, 'POST', '/refresh', { headers: { Cookie: memberS.cookie } }),
        403,
        'IP_NOT_ALLOWED',
      );
      // Refused before the second factor: no code is asked of (or sent to) someone who may not sign in from here.
      const withTotp = await createUser(t, org, { roleId: Role.ANALYST, totpSecret: generateSecret() });
      expectRefused(
        await callFrom(t, OTHER_LOOPBACK, 'POST', '/auth/login', {
          body: { username: withTotp.email, password: PASSWORD, acceptToS: true },
        }),
        403,
        'IP_NOT_ALLOWED',
      );
      // From inside, sign-in works as before.
      const inside = await callFrom(t, '127.0.0.1', 'POST', '/auth/login', {
        body: { username: member.email, password: PASSWORD, acceptToS: true },
      });
      expect(inside.status).toBe(200);
    });

    it('another organisation’s members and E-Support are not bound by the ranges', async () => {
      const { org, adminS } = await organisation();
      await put(adminS, org.id, { allowedIpRanges: ['127.0.0.1/32'] }).expect(200);
      for (const s of [support().session, m.otherOrgAdmin.session]) {
        const res = await callFrom(t, OTHER_LOOPBACK, 'GET', '/api/users/current', { headers: s.auth });
        expect(res.status).toBe(200);
      }
      // E-Support may read and change the policy from anywhere.
      const res = await callFrom(t, OTHER_LOOPBACK, 'GET', policyPath(org.id), { headers: support().session.auth });
      expect(res.status).toBe(200);
    });

    it('a policy that would exclude the address saving it is 400 POLICY_LOCKS_YOU_OUT; E-Support may save it', async () => {
      const { org, adminS } = await organisation();
      expectRefused(await put(adminS, org.id, { allowedIpRanges: ['10.0.0.0/8'] }), 400, 'POLICY_LOCKS_YOU_OUT');
      expect((await readRow(org.id)).allowedIpRanges).toEqual([]);
      const fromElsewhere = await callFrom(t, OTHER_LOOPBACK, 'PUT', policyPath(org.id), {
        headers: adminS.auth,
        body: { allowedIpRanges: ['127.0.0.1/32'] },
      });
      expectRefused(fromElsewhere, 400, 'POLICY_LOCKS_YOU_OUT');
      await put(support().session, org.id, { allowedIpRanges: ['10.0.0.0/8'] }).expect(200);
      // Now the site admin is outside: every call, this one included, is refused.
      expectRefused(await put(adminS, org.id, { allowedIpRanges: [] }), 403, 'IP_NOT_ALLOWED');
    });

    it('sockets: refused from outside the ranges, and the organisation’s sockets are dropped when the policy changes', async () => {
      const { org, adminS, memberS } = await organisation();
      const open = socketFrom(t, memberS.accessToken, OTHER_LOOPBACK);
      expect(await open.outcome).toBe('connected');
      await put(adminS, org.id, { allowedIpRanges: ['127.0.0.1/32'] }).expect(200);
      expect(await open.disconnected).toBe('io server disconnect');
      const again = socketFrom(t, memberS.accessToken, OTHER_LOOPBACK);
      expect(await again.outcome).toBe(SOCKET_ERRORS.IP_NOT_ALLOWED);
      const inside = socketFrom(t, memberS.accessToken, '127.0.0.1');
      expect(await inside.outcome).toBe('connected');
      for (const s of [open, again, inside]) s.socket.disconnect();
    });
  });

  describe('session lifetimes (time moved with a controlled clock)', () => {
    const sessionRow = (s: LoggedIn) => t.db.getRepository(Session).findOneByOrFail({ id: sessionIdOf(s) });
    /** The trail's SESSION_EXPIRED events of an account (each account here holds one session). */
    const expiredEvents = (user: User) =>
      t.db.getRepository(AuditEvent).findBy({ type: 'SESSION_EXPIRED', targetId: user.id });
    /** Exactly one SESSION_EXPIRED event for the account, the service's, in its organisation's trail. */
    async function expectOneExpiry(user: User, reason: RegExp): Promise<void> {
      const events = await expiredEvents(user);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        actorKind: 'service',
        actorId: null,
        targetEmail: user.email,
        targetOrganisationId: user.organisationId,
        organisationId: user.organisationId,
      });
      expect(events[0].summary).toMatch(reason);
    }

    it('sessionIdleMinutes: a call within the limit keeps the session; idle that long, it ends at the next call', async () => {
      const { org, adminS } = await organisation();
      await put(adminS, org.id, { sessionIdleMinutes: 5 }).expect(200);
      const member = await createUser(t, org, { roleId: Role.ANALYST });
      const s = await login(t, member.email);
      const start = Date.now();
      clockAt(start + 3 * 60_000);
      await request(t.http).get('/api/users/current').set(s.auth).expect(200);
      // Recorded at most once a minute: the call at three minutes is the session's last use.
      expect((await sessionRow(s)).lastUsedAt).not.toBeNull();
      clockAt(start + 7 * 60_000);
      await request(t.http).get('/api/users/current').set(s.auth).expect(200);
      clockAt(start + 13 * 60_000);
      expectRefused(await request(t.http).get('/api/users/current').set(s.auth), 401, 'SESSION_ENDED');
      const row = await sessionRow(s);
      expect(row.endReason).toBe('idle');
      expect(row.endedAt).not.toBeNull();
      // Its refresh token went with it.
      expectErrorBody(await request(t.http).post('/refresh').set('Cookie', s.cookie), 401);
      // Audited once, by the service: the calls refused after the end record nothing more.
      expectRefused(await request(t.http).get('/api/users/current').set(s.auth), 401, 'SESSION_ENDED');
      await expectOneExpiry(member, /idle/);
    });

    it('sessionMaxHours: a session that old ends at its refresh, whatever its use', async () => {
      const { org, adminS } = await organisation();
      await put(adminS, org.id, { sessionMaxHours: 1 }).expect(200);
      const member = await createUser(t, org, { roleId: Role.ANALYST });
      const s = await login(t, member.email);
      const start = Date.now();
      clockAt(start + 50 * 60_000);
      const refreshed = await request(t.http).post('/refresh').set('Cookie', s.cookie).expect(200);
      const cookie = ([] as string[])
        .concat(refreshed.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('refreshToken='))!
        .split(';')[0];
      clockAt(start + 61 * 60_000);
      expectErrorBody(await request(t.http).post('/refresh').set('Cookie', cookie), 401);
      expect((await sessionRow(s)).endReason).toBe('policy-max-age');
      await expectOneExpiry(member, /maximum age/);
      // A sweep after the refresh finds nothing more to end or record.
      await t.app.get(SessionLifetimeService).sweep(Date.now());
      await expectOneExpiry(member, /maximum age/);
    });

    it('the sweep ends sessions that make no call, with their sockets; sessions of other organisations stay', async () => {
      const { org, admin, member, adminS, memberS } = await organisation();
      const bystander = await organisation();
      await put(adminS, org.id, { sessionIdleMinutes: 5 }).expect(200);
      const socket = socketFrom(t, memberS.accessToken, '127.0.0.1');
      expect(await socket.outcome).toBe('connected');
      const ended = await t.app.get(SessionLifetimeService).sweep(Date.now() + 6 * 60_000);
      expect(ended).toBeGreaterThanOrEqual(2);
      expect((await sessionRow(memberS)).endReason).toBe('idle');
      expect((await sessionRow(adminS)).endReason).toBe('idle');
      expect(await socket.disconnected).toBe('io server disconnect');
      expect((await sessionRow(bystander.memberS)).endedAt).toBeNull();
      await expectOneExpiry(member, /idle/);
      await expectOneExpiry(admin, /idle/);
      expect(await expiredEvents(bystander.member)).toHaveLength(0);
      // A second sweep ends and records nothing more.
      await t.app.get(SessionLifetimeService).sweep(Date.now() + 7 * 60_000);
      await expectOneExpiry(member, /idle/);
    });

    it('an idle limit set now does not end sessions for the idle time before it', async () => {
      const { org, member, adminS, memberS } = await organisation();
      clockAt(Date.now() + 30 * 60_000);
      // Refresh first: the member's access token is past its 15 minutes at this clock.
      const fresh = await request(t.http).post('/refresh').set('Cookie', adminS.cookie).expect(200);
      const admin = { Authorization: `Bearer ${fresh.body.newAccessToken}` };
      await request(t.http).put(policyPath(org.id)).set(admin).send({ sessionIdleMinutes: 5 }).expect(200);
      await request(t.http).post('/refresh').set('Cookie', memberS.cookie).expect(200);
      expect(await expiredEvents(member)).toHaveLength(0);
    });

    it('two sweeps (two instances) and calls racing to end the same idle sessions: each is ended and audited once', async () => {
      const { org, adminS } = await organisation();
      await put(adminS, org.id, { sessionIdleMinutes: 5 }).expect(200);
      const members = await Promise.all([1, 2, 3].map(() => createUser(t, org, { roleId: Role.ANALYST })));
      const sessions: LoggedIn[] = [];
      for (const u of members) sessions.push(await login(t, u.email));
      const lifetime = t.app.get(SessionLifetimeService);
      clockAt(Date.now() + 6 * 60_000);
      const answers = await Promise.all([
        lifetime.sweep(),
        lifetime.sweep(),
        ...sessions.map((s) => request(t.http).get('/api/users/current').set(s.auth)),
        ...sessions.map((s) => request(t.http).get('/api/users/current').set(s.auth)),
        lifetime.sweep(),
      ]);
      for (const res of answers.filter((a): a is request.Response => typeof a === 'object'))
        expect(res.status).toBe(401);
      for (const [i, u] of members.entries()) {
        expect((await sessionRow(sessions[i])).endReason).toBe('idle');
        await expectOneExpiry(u, /idle/);
      }
    });

    it('sessionMaxHours: the sweep and refreshes racing at the maximum age end and audit each session once', async () => {
      const { org, adminS } = await organisation();
      await put(adminS, org.id, { sessionMaxHours: 1 }).expect(200);
      const members = await Promise.all([1, 2].map(() => createUser(t, org, { roleId: Role.ANALYST })));
      const sessions: LoggedIn[] = [];
      for (const u of members) sessions.push(await login(t, u.email));
      const lifetime = t.app.get(SessionLifetimeService);
      clockAt(Date.now() + 61 * 60_000);
      const answers = await Promise.all([
        lifetime.sweep(),
        ...sessions.map((s) => request(t.http).post('/refresh').set('Cookie', s.cookie)),
        lifetime.sweep(),
      ]);
      for (const res of answers.filter((a): a is request.Response => typeof a === 'object'))
        expect(res.status).toBe(401);
      for (const [i, u] of members.entries()) {
        expect((await sessionRow(sessions[i])).endReason).toBe('policy-max-age');
        await expectOneExpiry(u, /maximum age/);
      }
    });
  });

  describe('mfaRequired', () => {
    it('members without a second factor read isMFAEnforced and may only enrol; with TOTP nothing changes', async () => {
      const { org, adminS, memberS } = await organisation();
      const withTotp = await createUser(t, org, { roleId: Role.ANALYST, totpSecret: generateSecret() });
      const totpS = await request(t.http)
        .post('/auth/login')
        .send({ username: withTotp.email, password: PASSWORD, acceptToS: true });
      expect(totpS.status).toBe(401); // TOTP step, as before
      await put(adminS, org.id, { mfaRequired: true }).expect(200);
      const current = await request(t.http).get('/api/users/current').set(memberS.auth).expect(200);
      expect(current.body).toMatchObject({ isMFAEnforced: true, isMFAEnabled: false });
      expectRefused(await request(t.http).get('/api/notifications').set(memberS.auth), 403, 'MFA_ENROLMENT_REQUIRED');
      const enable = await request(t.http).post('/mfa/enable').set(memberS.auth).expect(200);
      expect(enable.body.secret.base32).toEqual(expect.any(String));
      await request(t.http).get('/api/app-info').set(memberS.auth).expect(200);
      // A new sign-in works, and lands in the same enrolment.
      const member = await t.db.getRepository(User).findOneByOrFail({ id: (current.body as { id: number }).id });
      const again = await login(t, member.email);
      expectRefused(await request(t.http).get('/api/notifications').set(again.auth), 403, 'MFA_ENROLMENT_REQUIRED');
      // The site admin who saved it has no second factor either: kept to enrolment like everyone else.
      expectRefused(await put(adminS, org.id, { mfaRequired: false }), 403, 'MFA_ENROLMENT_REQUIRED');
      // Switched off (by E-Support): the member works again at once.
      await put(support().session, org.id, { mfaRequired: false }).expect(200);
      await request(t.http).get('/api/users/current').set(memberS.auth).expect(200);
      const after = await request(t.http).get('/api/users/current').set(memberS.auth);
      expect(after.body.isMFAEnforced).toBe(false);
    });
  });

  describe('ssoRequired', () => {
    it('members on a verified domain sign in only through the provider; E-Support and the site admin who saved it keep passwords', async () => {
      const org = await createOrganisation(t);
      const domain = `policy-${org.id}.example`;
      await verifyDomain(t, org, domain);
      const connection = await t.db.getRepository(SsoConnection).save(
        t.db.getRepository(SsoConnection).create({
          organisationId: org.id,
          protocol: 'oidc',
          name: 'Corporate',
          enabled: true,
          oidcIssuer: 'https://idp.example',
          oidcClientId: 'portal',
        }),
      );
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN, email: `admin@${domain}` });
      const otherAdmin = await createUser(t, org, { roleId: Role.SITE_ADMIN, email: `second@${domain}` });
      const member = await createUser(t, org, { roleId: Role.ANALYST, email: `member@${domain}` });
      const outsider = await createUser(t, org, {
        roleId: Role.ANALYST,
        email: `contractor-${org.id}@elsewhere.example`,
      });
      const adminS = await login(t, admin.email);
      await put(adminS, org.id, { ssoRequired: true }).expect(200);

      const signIn = (email: string, password = PASSWORD) =>
        request(t.http).post('/auth/login').send({ username: email, password, acceptToS: true });
      for (const who of [member, otherAdmin]) {
        const res = await signIn(who.email);
        expectRefused(res, 401, 'SSO_REQUIRED');
        expect(res.body.url).toBe(`/auth/sso/${connection.id}?login_hint=${encodeURIComponent(who.email)}`);
      }
      // A wrong password learns nothing of the policy.
      expectRefused(await signIn(member.email, 'Wrong-Password-1'), 401, 'INVALID_CREDENTIALS');
      await signIn(admin.email).expect(200);
      await signIn(outsider.email).expect(200);
      // E-Support is not bound: it saves the policy, and the site admin who saved it keeps their way in.
      await put(support().session, org.id, { ssoRequired: true, sessionMaxHours: 100 }).expect(200);
      await signIn(admin.email).expect(200);
      await put(adminS, org.id, { ssoRequired: false }).expect(200);
      await signIn(member.email).expect(200);
    });

    it('a passkey alone is refused the same way (401 SSO_REQUIRED, audited); the site admin who saved it keeps theirs', async () => {
      const org = await createOrganisation(t);
      const domain = `passkey-policy-${org.id}.example`;
      await verifyDomain(t, org, domain);
      const connection = await t.db.getRepository(SsoConnection).save(
        t.db.getRepository(SsoConnection).create({
          organisationId: org.id,
          protocol: 'oidc',
          name: 'Corporate',
          enabled: true,
          oidcIssuer: 'https://idp.example',
          oidcClientId: 'portal',
        }),
      );
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN, email: `admin@${domain}` });
      const member = await createUser(t, org, { roleId: Role.ANALYST, email: `member@${domain}` });
      const adminS = await login(t, admin.email);
      const keys = new Map<number, SoftAuthenticator>();
      for (const [who, s] of [
        [admin, adminS],
        [member, await login(t, member.email)],
      ] as const) {
        const key = new SoftAuthenticator('http://portal.test');
        const options = await request(t.http).post('/mfa/passkeys/registration-options').set(s.auth).expect(200);
        const { response } = key.register(options.body);
        await request(t.http).post('/mfa/passkeys').set(s.auth).send({ name: 'Laptop', response }).expect(200);
        keys.set(who.id, key);
      }
      const withPasskey = async (userId: number) => {
        const options = await request(t.http).post('/auth/passkey/options').expect(200);
        return request(t.http)
          .post('/auth/login')
          .send({ acceptToS: true, passkey: keys.get(userId)!.assert(options.body) });
      };
      const sessionsOf = (userId: number) => t.db.getRepository(Session).countBy({ userId });
      const refusals = (userId: number) =>
        t.db.getRepository(AuditEvent).countBy({ type: 'SIGN_IN_FAILED', targetId: userId });
      await put(adminS, org.id, { ssoRequired: true }).expect(200);

      const sessionsBefore = await sessionsOf(member.id);
      const refused = await withPasskey(member.id);
      expectRefused(refused, 401, 'SSO_REQUIRED');
      expect(refused.body.url).toBe(`/auth/sso/${connection.id}?login_hint=${encodeURIComponent(member.email)}`);
      expect(refused.body.accessToken).toBeUndefined();
      expect(await sessionsOf(member.id)).toBe(sessionsBefore);
      const [event] = await t.db
        .getRepository(AuditEvent)
        .find({ where: { type: 'SIGN_IN_FAILED', targetId: member.id }, order: { id: 'DESC' }, take: 1 });
      expect(event.summary).toBe(`${SIGN_IN_FAILURE_REASONS.SSO_REQUIRED} for ${member.email}`);

      // The site admin who saved the policy keeps their way in, and is not recorded as refused.
      const adminRefusals = await refusals(admin.id);
      expect((await withPasskey(admin.id)).status).toBe(200);
      expect(await refusals(admin.id)).toBe(adminRefusals);
      // With the policy off, the member's passkey works again.
      await put(adminS, org.id, { ssoRequired: false }).expect(200);
      expect((await withPasskey(member.id)).status).toBe(200);
    });
  });

  describe('passwordMinLength', () => {
    it('applies at the next password set: the profile’s change and the temporary password of a new user', async () => {
      const { org, adminS, member } = await organisation();
      await put(adminS, org.id, { passwordMinLength: 20 }).expect(200);
      const s = await login(t, member.email);
      const short = await request(t.http)
        .patch('/api/users/updatePassword')
        .set(s.auth)
        .send({ currentPassword: PASSWORD, userPassword: 'Nineteen-chars-ok1' });
      expectRefused(short, 400, 'WEAK_PASSWORD');
      expect(short.body.message).toContain('20');
      await request(t.http)
        .patch('/api/users/updatePassword')
        .set(s.auth)
        .send({ currentPassword: PASSWORD, userPassword: 'Twenty-characters-ok-7' })
        .expect(200);
      // Another organisation keeps the product's minimum.
      const other = await organisation();
      await request(t.http)
        .patch('/api/users/updatePassword')
        .set(other.memberS.auth)
        .send({ currentPassword: PASSWORD, userPassword: 'Nine-ch-9' })
        .expect(200);
    });
  });

  // Last: passport registers its strategies process-wide, so once a second app in this process has started and
  // closed, the first one's password sign-in would go through the closed app's strategy.
  describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
    let p: TestApp;
    beforeAll(async () => {
      p = await createTestApp({ TRUST_PROXY: 'true' });
      await p.app.listen(0, '127.0.0.1');
    });
    afterAll(() => p.close());

    it('the address is X-Forwarded-For’s: IPv4 and IPv6 ranges, calls, sign-in and sockets', async () => {
      const org = await createOrganisation(p);
      const admin = await createUser(p, org, { roleId: Role.SITE_ADMIN });
      const member = await createUser(p, org, { roleId: Role.ANALYST });
      const loginFrom = (ip: string, email: string) =>
        request(p.http)
          .post('/auth/login')
          .set('X-Forwarded-For', ip)
          .send({ username: email, password: PASSWORD, acceptToS: true });
      const adminRes = await loginFrom('203.0.113.7', admin.email).expect(200);
      const adminAuth = { Authorization: `Bearer ${adminRes.body.accessToken}` };
      // The connection (127.0.0.1) is not what counts: the proxy's header is.
      const locks = await request(p.http)
        .put(policyPath(org.id))
        .set(adminAuth)
        .set('X-Forwarded-For', '203.0.113.7')
        .send({ allowedIpRanges: ['127.0.0.0/8'] });
      expectRefused(locks, 400, 'POLICY_LOCKS_YOU_OUT');
      await request(p.http)
        .put(policyPath(org.id))
        .set(adminAuth)
        .set('X-Forwarded-For', '203.0.113.7')
        .send({ allowedIpRanges: ['203.0.113.0/24', '2001:db8::/32'] })
        .expect(200);
      const memberRes = await loginFrom('2001:db8::42', member.email).expect(200);
      expectRefused(await loginFrom('198.51.100.1', member.email), 403, 'IP_NOT_ALLOWED');
      const auth = { Authorization: `Bearer ${memberRes.body.accessToken}` };
      await request(p.http).get('/api/users/current').set(auth).set('X-Forwarded-For', '203.0.113.99').expect(200);
      expectRefused(
        await request(p.http).get('/api/users/current').set(auth).set('X-Forwarded-For', '198.51.100.1'),
        403,
        'IP_NOT_ALLOWED',
      );
      const refused = socketFrom(p, memberRes.body.accessToken, '127.0.0.1', { 'X-Forwarded-For': '198.51.100.1' });
      expect(await refused.outcome).toBe(SOCKET_ERRORS.IP_NOT_ALLOWED);
      const allowed = socketFrom(p, memberRes.body.accessToken, '127.0.0.1', { 'X-Forwarded-For': '2001:db8::7' });
      expect(await allowed.outcome).toBe('connected');
      refused.socket.disconnect();
      allowed.socket.disconnect();
    });
  });
});

function policyOf(org: Organisation) {
  return {
    mfaRequired: org.mfaRequired,
    ssoRequired: org.ssoRequired,
    allowedIpRanges: org.allowedIpRanges,
    sessionIdleMinutes: org.sessionIdleMinutes,
    sessionMaxHours: org.sessionMaxHours,
    passwordMinLength: org.passwordMinLength,
  };
}

/** An audit event's changes as stored (JSON text on either database). */
function changesOf(event: AuditEvent): unknown {
  const changes = event.changes as unknown;
  return typeof changes === 'string' ? JSON.parse(changes) : changes;
}
