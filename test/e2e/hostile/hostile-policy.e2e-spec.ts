import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Invitation } from '../../../src/administration/invitations/entities/invitation.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { NewApiKey } from '../../../src/shared/administration/api-keys';
import { Role } from '../../../src/shared/roles';
import { clockAt } from '../../utils/clock';
import { Answer, callFrom } from '../../utils/from-address';
import { createOrganisation, createUser, LoggedIn, login, PASSWORD } from '../../utils/factories';
import { ageSession, sessionIdOf, stepUp } from '../../utils/step-up';
import { verifyDomain } from '../../utils/identity-providers/sso';
import { createTestApp, TestApp } from '../../utils/test-app';

const OUTSIDE = '127.0.0.2';
const policyPath = (id: number) => `/api/organisations/${id}/security-policy`;

function expectRefused(res: Answer | request.Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.body).toMatchObject({ success: false, statusCode: status });
}

/**
 * An organisation's security policy attacked at each door it must hold at (docs/security-policy.md): an API key from
 * an excluded address, a refresh racing the idle sweep, a password session kept after single sign-on was required;
 * and a privileged role smuggled past the step-up of bulk invitations.
 */
describe('Hostile: the security policy at every door', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => t.close());
  afterEach(() => jest.useRealTimers());

  const put = (s: LoggedIn, orgId: number, body: object) =>
    request(t.http).put(policyPath(orgId)).set(s.auth).send(body);
  const sessionRow = (s: LoggedIn) => t.db.getRepository(Session).findOneByOrFail({ id: sessionIdOf(s) });

  it('an API key from outside its organisation’s ranges is 403 IP_NOT_ALLOWED, as a member is; inside it works', async () => {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const member = await createUser(t, org, { roleId: Role.ANALYST });
    const adminS = await login(t, admin.email);
    const memberS = await login(t, member.email);
    const key = (
      await request(t.http)
        .post('/api/api-keys')
        .set(adminS.auth)
        .send({ name: 'Reader', scopes: ['users:read'] })
        .expect(201)
    ).body as NewApiKey;
    const asKey = { Authorization: `Bearer ${key.key}` };
    await put(adminS, org.id, { allowedIpRanges: ['127.0.0.1/32'] }).expect(200);

    expectRefused(await callFrom(t, OUTSIDE, 'GET', '/api/users', { headers: memberS.auth }), 403, 'IP_NOT_ALLOWED');
    expectRefused(await callFrom(t, OUTSIDE, 'GET', '/api/users', { headers: asKey }), 403, 'IP_NOT_ALLOWED');
    expectRefused(await callFrom(t, OUTSIDE, 'GET', '/auth/organisation', { headers: asKey }), 403, 'IP_NOT_ALLOWED');
    expect((await callFrom(t, '127.0.0.1', 'GET', '/api/users', { headers: asKey })).status).toBe(200);
    // A bad key is still a 401 from anywhere: the address decides nothing before the key is known.
    const forged = { Authorization: `Bearer ${key.key.slice(0, -2)}xx` };
    expect((await callFrom(t, OUTSIDE, 'GET', '/api/users', { headers: forged })).status).toBe(401);
    // Ranges cleared: the key works from anywhere again, at once.
    await put(adminS, org.id, { allowedIpRanges: [] }).expect(200);
    expect((await callFrom(t, OUTSIDE, 'GET', '/api/users', { headers: asKey })).status).toBe(200);
  });

  it('a refresh cannot outrun the idle sweep: idle past the limit, the refresh ends the session (SESSION_ENDED)', async () => {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    await put(await login(t, admin.email), org.id, { sessionIdleMinutes: 5 }).expect(200);
    const member = await createUser(t, org, { roleId: Role.ANALYST });
    const s = await login(t, member.email);
    const start = Date.now();
    const refresh = async (cookie: string) => {
      const res = await request(t.http).post('/refresh').set('Cookie', cookie);
      const next = ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('refreshToken='))
        ?.split(';')[0];
      return { res, cookie: next ?? cookie };
    };
    // Refreshes within the limit keep the session: each counts from the one before.
    clockAt(start + 4 * 60_000);
    let r = await refresh(s.cookie);
    expect(r.res.status).toBe(200);
    clockAt(start + 8 * 60_000);
    r = await refresh(r.cookie);
    expect(r.res.status).toBe(200);
    // Twenty minutes without a call or a refresh: the refresh itself must not count as the use that saves it.
    clockAt(start + 28 * 60_000);
    const late = await refresh(r.cookie);
    expectRefused(late.res, 401, 'SESSION_ENDED');
    const row = await sessionRow(s);
    expect(row.endReason).toBe('idle');
    const ended = await t.db.getRepository(AuditEvent).findBy({ type: 'SESSION_EXPIRED', targetId: member.id });
    expect(ended).toHaveLength(1);
  });

  describe('ssoRequired reaches the sessions opened before it', () => {
    async function organisationWithProvider() {
      const org = await createOrganisation(t);
      const domain = `hostile-sso-${org.id}.example`;
      await verifyDomain(t, org, domain);
      await t.db.getRepository(SsoConnection).save(
        t.db.getRepository(SsoConnection).create({
          organisationId: org.id,
          protocol: 'oidc',
          name: 'Corporate',
          enabled: true,
          oidcIssuer: 'https://idp.example',
          oidcClientId: 'portal',
        }),
      );
      return { org, domain };
    }

    it('saving it ends the password sessions of the members it covers, on the next call and refresh; others keep theirs', async () => {
      const { org, domain } = await organisationWithProvider();
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN, email: `admin@${domain}` });
      const otherAdmin = await createUser(t, org, { roleId: Role.SITE_ADMIN, email: `second@${domain}` });
      const member = await createUser(t, org, { roleId: Role.ANALYST, email: `member@${domain}` });
      const outsider = await createUser(t, org, { roleId: Role.ANALYST, email: `c-${org.id}@elsewhere.example` });
      const [adminS, otherS, memberS, outsiderS] = await Promise.all(
        [admin, otherAdmin, member, outsider].map((u) => login(t, u.email)),
      );
      await put(adminS, org.id, { ssoRequired: true }).expect(200);

      for (const s of [memberS, otherS]) {
        expectRefused(await request(t.http).get('/api/users/current').set(s.auth), 401, 'SESSION_ENDED');
        expect((await request(t.http).post('/refresh').set('Cookie', s.cookie)).status).toBe(401);
        expect((await sessionRow(s)).endReason).toBe('sso-required');
        expectRefused(await stepUp(t, s, { password: PASSWORD }), 401, 'SESSION_ENDED');
      }
      const events = await t.db.getRepository(AuditEvent).findBy({ type: 'SESSION_EXPIRED', targetId: member.id });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actorKind: 'service', organisationId: org.id });
      // The site admin who saved it and a member outside the verified domains keep their sessions.
      await request(t.http).get('/api/users/current').set(adminS.auth).expect(200);
      await request(t.http).get('/api/users/current').set(outsiderS.auth).expect(200);
      await request(t.http).post('/refresh').set('Cookie', outsiderS.cookie).expect(200);
    });

    it('a session it reaches later (a domain verified after the save) is refused at refresh; a covered SSO session may not step up with the password', async () => {
      const { org } = await organisationWithProvider();
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const adminS = await login(t, admin.email);
      await put(adminS, org.id, { ssoRequired: true }).expect(200);
      const lateDomain = `late-${org.id}.example`;
      const late = await createUser(t, org, { roleId: Role.ANALYST, email: `late@${lateDomain}` });
      const ssoUser = await createUser(t, org, { roleId: Role.ANALYST, email: `sso@${lateDomain}` });
      // Not covered yet: both sign in with their passwords.
      const lateS = await login(t, late.email);
      const ssoS = await login(t, ssoUser.email);
      await verifyDomain(t, { id: org.id } as Organisation, lateDomain);
      // As if this one had come through the provider.
      await t.db.getRepository(Session).update({ id: sessionIdOf(ssoS) }, { method: 'sso' });

      expect((await request(t.http).post('/refresh').set('Cookie', lateS.cookie)).status).toBe(401);
      expect((await sessionRow(lateS)).endReason).toBe('sso-required');

      expectRefused(await stepUp(t, ssoS, { password: PASSWORD }), 403, 'SSO_REQUIRED');
      // The refusal weighs nothing: a wrong password is answered alike, and nothing is counted against the account.
      expectRefused(await stepUp(t, ssoS, { password: 'Wrong-Password-1' }), 403, 'SSO_REQUIRED');
      expect(await t.db.getRepository(AuditEvent).countBy({ type: 'STEP_UP', targetId: ssoUser.id })).toBe(0);
      // Its session itself came from the provider: it goes on, and refreshes.
      await request(t.http).get('/api/users/current').set(ssoS.auth).expect(200);
      await request(t.http).post('/refresh').set('Cookie', ssoS.cookie).expect(200);
    });
  });

  it('bulk invitations: a privileged role quoted in pieces still needs a step-up, and nothing is invited without it', async () => {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const s = await login(t, admin.email);
    await ageSession(t, s, 60);
    const bulk = (csv: string) =>
      request(t.http).post('/api/invitations/bulk').set(s.auth).set('Content-Type', 'text/csv').send(csv);
    const invited = () => t.db.getRepository(Invitation).countBy({ organisationId: org.id });
    for (const cell of ['"Admin"istrator', '"SITE_"ADMIN', '"Site ""Admin"', 'site admin']) {
      const res = await bulk(`email,role\nx-${org.id}@hostile-bulk.example,${cell}\n`);
      if (cell === '"Site ""Admin"') {
        // Not a role once read (Site "Admin): refused as unknown, whatever the step-up.
        expect(res.status).toBe(200);
        expect(res.body[0]).toMatchObject({ status: 'refused' });
        continue;
      }
      expectRefused(res, 403, 'STEP_UP_REQUIRED');
      expect(await invited()).toBe(0);
    }
    // After a step-up the same file invites, with the role it names.
    await stepUp(t, s, { password: PASSWORD }).expect(200);
    const res = await bulk(`email,role\nx-${org.id}@hostile-bulk.example,"Admin"istrator\n`).expect(200);
    expect(res.body).toEqual([{ row: 1, email: `x-${org.id}@hostile-bulk.example`, status: 'invited' }]);
    const invitation = await t.db.getRepository(Invitation).findOneByOrFail({ organisationId: org.id });
    expect(invitation.isAdministrator).toBe(true);
  });
});
