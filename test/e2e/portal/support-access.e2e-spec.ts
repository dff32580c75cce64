import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { AuditService } from '../../../src/platform/audit';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { runInSupportSession, supportActingFor } from '../../../src/platform/web/support-session-call';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { IntegrationDelivery } from '../../../src/administration/integrations/entities/integration-delivery.entity';
import { Notification } from '../../../src/portal/notifications/entities/notification.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { Role } from '../../../src/shared/roles';
import { SupportAccessPolicy } from '../../../src/shared/portal/support-access';
import { SupportAccess } from '../../../src/portal/support-access/entities/support-access.entity';
import { SupportAccessEnding } from '../../../src/portal/support-access/support-access-ending.service';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, LoggedIn, login, PASSWORD } from '../../utils/factories';
import { lastMailTo } from '../../utils/outbox';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { clockAt } from '../../utils/clock';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';

const REASON = 'Member reports the holdings page shows no data';

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
}

function expectCode(res: request.Response, status: number, code: string): void {
  expectErrorBody(res, status);
  expect(res.body.code).toBe(code);
}

describe('Support access: E-Support acting as a member, with the organisation’s consent', () => {
  let t: TestApp;
  let m: RoleMatrix;
  const support = () => m.byRole.E_SUPPORT.session;
  const http = () => request(t.http);

  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());
  afterEach(() => jest.useRealTimers());

  /** A fresh organisation under this policy, with its site admin (signed in) and a member. */
  async function organisation(policy: SupportAccessPolicy = 'approval', memberRole = Role.ANALYST) {
    const org = await createOrganisation(t);
    await t.db.getRepository(Organisation).update({ id: org.id }, { supportAccess: policy });
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const member = await createUser(t, org, { roleId: memberRole });
    return { org, admin, member, adminS: await login(t, admin.email) };
  }
  /** A fresh E-Support account, signed in (each test that starts a session has its own: one at a time). */
  async function supportAccount() {
    const user = await createUser(t, m.vendor, { roleId: Role.E_SUPPORT });
    return { user, s: await login(t, user.email) };
  }
  const ask = (s: LoggedIn, userId: number, reason = REASON) =>
    http().post('/api/support-access').set(s.auth).send({ userId, reason });
  const approve = (s: LoggedIn, id: number) => http().post(`/api/support-access/${id}/approve`).set(s.auth);
  const start = (s: LoggedIn, id: number) => http().post(`/api/support-access/${id}/start`).set(s.auth);
  const stop = (s: LoggedIn, id: number) => http().delete(`/api/support-access/${id}`).set(s.auth);
  const row = (id: number) => t.db.getRepository(SupportAccess).findOneByOrFail({ id });
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  /** A token's claims (and `extra`) signed anew with the server's key, as one who held the key could. */
  const reSigned = (token: string, extra: object = {}) => {
    const { iat: _iat, exp: _exp, ...rest } = claims(token);
    return t.app.get(JwtService).sign({ ...rest, ...extra }, { expiresIn: 900 });
  };

  /** A started support session on an `always` organisation: the request, the token and everything around it. */
  async function started(policy: SupportAccessPolicy = 'always', memberRole = Role.ANALYST) {
    const o = await organisation(policy, memberRole);
    const e = await supportAccount();
    const asked = await ask(e.s, o.member.id).expect(201);
    if (policy === 'approval') await approve(o.adminS, asked.body.id).expect(200);
    const res = await start(e.s, asked.body.id).expect(200);
    return { ...o, e, id: asked.body.id as number, token: res.body.accessToken as string, endsAt: res.body.endsAt };
  }

  describe('the organisation decides', () => {
    it('the policy field: approval by default, changed only by the organisation’s own site admins', async () => {
      const o = await organisation('approval');
      const path = `/api/organisations/${o.org.id}/security-policy`;
      expect((await http().get(path).set(o.adminS.auth).expect(200)).body.supportAccess).toBe('approval');
      expectErrorBody(await http().put(path).set(o.adminS.auth).send({ supportAccess: 'sometimes' }), 400);
      expectErrorBody(await http().put(path).set(support().auth).send({ supportAccess: 'always' }), 403);
      expect((await http().put(path).set(o.adminS.auth).send({ supportAccess: 'never' }).expect(200)).body).toEqual(
        expect.objectContaining({ supportAccess: 'never' }),
      );
      expect((await t.db.getRepository(Organisation).findOneByOrFail({ id: o.org.id })).supportAccess).toBe('never');
    });

    it('never: a request is 403 SUPPORT_ACCESS_OFF and nothing is recorded', async () => {
      const o = await organisation('never');
      expectCode(await ask(support(), o.member.id), 403, 'SUPPORT_ACCESS_OFF');
      expect(await t.db.getRepository(SupportAccess).countBy({ userId: o.member.id })).toBe(0);
    });

    it('approval: pending; the site admins are notified and e-mailed; it starts only once one approves', async () => {
      const o = await organisation('approval');
      const e = await supportAccount();
      const before = Date.now();
      const res = await ask(e.s, o.member.id).expect(201);
      expect(res.body).toEqual({ id: expect.any(Number), status: 'pending', expiresAt: expect.any(String) });
      const lapse = Date.parse(res.body.expiresAt) - before;
      expect(lapse).toBeGreaterThan(24 * 3_600_000 - 60_000);
      expect(lapse).toBeLessThanOrEqual(24 * 3_600_000 + 1000);
      const notes = await t.db.getRepository(Notification).findBy({ userId: o.admin.id });
      expect(notes).toHaveLength(1);
      expect(JSON.stringify(notes[0].content)).toContain(o.member.email);
      const panel = await http().get('/api/notifications').set(o.adminS.auth).expect(200);
      expect(JSON.stringify(panel.body)).toContain(REASON);
      const mail = await lastMailTo(t.dataDir, o.admin.email);
      expect(mail?.text).toContain(e.user.email);
      expect(mail?.text).toContain(REASON);
      expect(mail?.text).toContain('http://portal.test/users/support-access');

      expectCode(await start(e.s, res.body.id), 409, 'SUPPORT_ACCESS_STATE');
      expect((await approve(o.adminS, res.body.id).expect(200)).body.status).toBe('approved');
      expectCode(await approve(o.adminS, res.body.id), 409, 'SUPPORT_ACCESS_STATE');
      const s = await start(e.s, res.body.id).expect(200);
      expect(typeof s.body.accessToken).toBe('string');
    });

    it('always: approved at once, and it starts without anyone approving', async () => {
      const o = await organisation('always');
      const e = await supportAccount();
      const res = await ask(e.s, o.member.id).expect(201);
      expect(res.body.status).toBe('approved');
      expect(await t.db.getRepository(Notification).countBy({ userId: o.admin.id })).toBe(0);
      await start(e.s, res.body.id).expect(200);
    });

    it('refused: the request can no longer start', async () => {
      const o = await organisation('approval');
      const e = await supportAccount();
      const res = await ask(e.s, o.member.id).expect(201);
      expect(
        (await http().post(`/api/support-access/${res.body.id}/refuse`).set(o.adminS.auth).expect(200)).body,
      ).toEqual(expect.objectContaining({ status: 'refused' }));
      expectCode(await start(e.s, res.body.id), 409, 'SUPPORT_ACCESS_STATE');
    });

    it('an unstarted request lapses after 24 hours', async () => {
      const o = await organisation('always');
      const e = await supportAccount();
      const res = await ask(e.s, o.member.id).expect(201);
      clockAt(Date.now() + 24 * 3_600_000 + 60_000);
      // Signed in again a day later (the access tokens of the day before have expired).
      expectCode(await start(await login(t, e.user.email), res.body.id), 409, 'SUPPORT_ACCESS_STATE');
      const adminS = await login(t, o.admin.email);
      const list = await http().get('/api/support-access').set(adminS.auth).expect(200);
      expect(list.body.find((r: { id: number }) => r.id === res.body.id).status).toBe('expired');
      await t.app.get(SupportAccessEnding).sweep(Date.now());
      expect((await row(res.body.id)).status).toBe('expired');
    });
  });

  describe('who may call what', () => {
    it('asking: E-Support only (after step-up); every other role 403', async () => {
      const o = await organisation('approval');
      expect(await statusesFor(m, ({ session }) => ask(session, o.member.id))).toEqual(expected(['E_SUPPORT'], 201));
    });

    it('bad input is a 400; an unknown member a 404; an E-Support account is never a target', async () => {
      const o = await organisation('always');
      expectErrorBody(await ask(support(), o.member.id, 'too short'), 400);
      expectErrorBody(await ask(support(), o.member.id, 'x'.repeat(501)), 400);
      expectErrorBody(
        await http().post('/api/support-access').set(support().auth).send({ userId: 'a', reason: REASON }),
        400,
      );
      expectErrorBody(await ask(support(), 2_000_000_000), 404);
      expectCode(await ask(support(), m.byRole.E_SUPPORT.user.id), 400, 'SUPPORT_ACCESS_TARGET');
      // A site admin is a valid target.
      expect((await ask(support(), o.admin.id)).status).toBe(201);
    });

    it('approving: the organisation’s site admins only; another organisation’s is a 404', async () => {
      const statuses: Record<string, number> = {};
      for (const [code, actor] of Object.entries(m.byRole)) {
        const asked = await ask(support(), m.byRole.ANALYST.user.id).expect(201);
        statuses[code] = (await approve(actor.session, asked.body.id)).status;
      }
      expect(statuses).toEqual(expected(['SITE_ADMIN'], 200));
      const asked = await ask(support(), m.byRole.ANALYST.user.id).expect(201);
      expectErrorBody(await approve(m.otherOrgAdmin.session, asked.body.id), 404);
      expectErrorBody(
        await http().post(`/api/support-access/${asked.body.id}/refuse`).set(m.otherOrgAdmin.session.auth),
        404,
      );
    });

    it('starting: only the E-Support account that asked', async () => {
      const o = await organisation('always');
      const e = await supportAccount();
      const asked = await ask(e.s, o.member.id).expect(201);
      expectErrorBody(await start(support(), asked.body.id), 404);
      expectErrorBody(await start(o.adminS, asked.body.id), 403);
      await start(e.s, asked.body.id).expect(200);
    });

    it('listing: E-Support every organisation’s; site admins and administrators their own; others 403', async () => {
      const o = await organisation('always');
      const asked = await ask(support(), o.member.id).expect(201);
      const ids = async (s: LoggedIn) =>
        ((await http().get('/api/support-access').set(s.auth).expect(200)).body as Array<{ id: number }>).map(
          (r) => r.id,
        );
      expect(await ids(support())).toContain(asked.body.id);
      expect(await ids(o.adminS)).toEqual([asked.body.id]);
      expect(await ids(m.otherOrgAdmin.session)).not.toContain(asked.body.id);
      expect(await statusesFor(m, ({ session }) => http().get('/api/support-access').set(session.auth))).toEqual(
        expected(['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'], 200),
      );
      const item = (await http().get('/api/support-access').set(o.adminS.auth).expect(200)).body[0];
      expect(item).toEqual(
        expect.objectContaining({
          supportUser: expect.objectContaining({ id: m.byRole.E_SUPPORT.user.id }),
          user: expect.objectContaining({ id: o.member.id, email: o.member.email }),
          reason: REASON,
          status: 'approved',
          startedAt: null,
          endsAt: null,
        }),
      );
    });
  });

  describe('the session as the member', () => {
    it('acts as the member, with act naming the E-Support account, at most 60 minutes; Live sessions counts it', async () => {
      const s = await started();
      const payload = claims(s.token);
      expect(payload.sub).toBe(s.member.id);
      expect(payload.act).toEqual({ sub: s.e.user.id, email: s.e.user.email });
      expect((payload.exp as number) - (payload.iat as number)).toBeLessThanOrEqual(3600);
      expect(Date.parse(s.endsAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
      const me = await http().get('/api/users/current').set(bearer(s.token)).expect(200);
      expect(me.body.email).toBe(s.member.email);
      const session = await t.db.getRepository(Session).findOneByOrFail({ supportAccessId: s.id });
      expect(session).toEqual(expect.objectContaining({ userId: s.member.id, endedAt: null, method: 'support' }));
      const live = await http().get('/api/userLoginActivities/user-sessions').set(s.adminS.auth).expect(200);
      const rowOf = (live.body.userSessions as Array<{ id: number; status: string; supportSession?: object }>).find(
        (u) => u.id === s.member.id,
      );
      expect(rowOf).toEqual(
        expect.objectContaining({
          status: 'online',
          supportSession: { supportAccessId: s.id, supportUserEmail: s.e.user.email, endsAt: s.endsAt },
        }),
      );
    });

    it('every audit event made in it names both the E-Support account and the member; the audit page filters by it', async () => {
      const s = await started('always', Role.SITE_ADMIN);
      const colleague = await createUser(t, s.org, { roleId: Role.VIEWER });
      await http()
        .put('/api/users/disableUser')
        .set(bearer(s.token))
        .send({ userId: colleague.id, isDisabled: true })
        .expect(200);
      const changed = await t.db
        .getRepository(AuditEvent)
        .findOneByOrFail({ type: 'ACCESS_CHANGED', targetId: colleague.id });
      expect(changed).toEqual(
        expect.objectContaining({
          actorId: s.e.user.id,
          actorEmail: s.e.user.email,
          onBehalfOfId: s.member.id,
          onBehalfOfEmail: s.member.email,
          supportAccessId: s.id,
        }),
      );
      const page = await http().get(`/api/audit-events?supportAccessId=${s.id}`).set(s.adminS.auth).expect(200);
      const types = (page.body.items as Array<{ type: string }>).map((e) => e.type);
      expect(types).toEqual(
        expect.arrayContaining(['SUPPORT_ACCESS_REQUESTED', 'SUPPORT_ACCESS_STARTED', 'ACCESS_CHANGED']),
      );
      const byMember = await http().get(`/api/audit-events?onBehalfOfId=${s.member.id}`).set(s.adminS.auth).expect(200);
      expect((byMember.body.items as Array<{ type: string }>).map((e) => e.type)).toEqual(['ACCESS_CHANGED']);
      expect(byMember.body.items[0]).toEqual(
        expect.objectContaining({ actorId: s.e.user.id, onBehalfOfId: s.member.id }),
      );
    });

    it('an event naming the member as an account entity (not the caller) is attributed alike inside the call', async () => {
      const s = await started();
      const member = await t.db.getRepository(User).findOneByOrFail({ id: s.member.id });
      const support = {
        accessId: s.id,
        actorId: s.e.user.id,
        actorEmail: s.e.user.email,
        actorOrganisationId: m.vendor.id,
        endsAt: new Date(s.endsAt),
      };
      const audit = t.app.get(AuditService);
      await runInSupportSession(member.id, support, () =>
        audit.record(audit.manager, { type: 'PROFILE_CHANGED', actor: member, target: member, summary: 'inside' }),
      );
      // Outside a support session's call the same account is its own actor.
      await audit.record(audit.manager, { type: 'PROFILE_CHANGED', actor: member, target: member, summary: 'outside' });
      const events = await t.db
        .getRepository(AuditEvent)
        .find({ where: { type: 'PROFILE_CHANGED', targetId: member.id }, order: { id: 'ASC' } });
      expect(events.map((e) => [e.summary, e.actorId, e.onBehalfOfId, e.supportAccessId])).toEqual([
        ['inside', s.e.user.id, member.id, s.id],
        ['outside', member.id, null, null],
      ]);
    });

    it("through the HTTP stack a call of the session is served inside its context; the member's own and a forged token's are not", async () => {
      const s = await started('always', Role.SITE_ADMIN);
      const colleague = await createUser(t, s.org, { roleId: Role.VIEWER });
      const memberS = await login(t, s.member.email);
      const audit = t.app.get(AuditService);
      const original = audit.record.bind(audit);
      const acting: Array<number | undefined> = [];
      const spy = jest.spyOn(audit, 'record').mockImplementation((...args: Parameters<AuditService['record']>) => {
        acting.push(supportActingFor(s.member.id)?.accessId);
        return original(...args);
      });
      try {
        const disable = (auth: Record<string, string>, isDisabled: boolean) =>
          http().put('/api/users/disableUser').set(auth).send({ userId: colleague.id, isDisabled });
        await disable(bearer(s.token), true).expect(200);
        expect(acting).toEqual([s.id]);
        await disable(memberS.auth, false).expect(200);
        expect(acting).toEqual([s.id, undefined]);
        // The same claims signed with another key: refused before any handler records anything.
        const [header, payload] = s.token.split('.');
        expectErrorBody(await disable(bearer(`${header}.${payload}.${'A'.repeat(43)}`), true), 401);
        expect(acting).toEqual([s.id, undefined]);
      } finally {
        spy.mockRestore();
      }
    });

    it('one at a time per E-Support account: of parallel starts exactly one opens a session', async () => {
      const o = await organisation('always');
      const e = await supportAccount();
      const other = await createUser(t, o.org, { roleId: Role.VIEWER });
      const ids: number[] = [];
      for (const userId of [o.member.id, other.id, o.member.id, other.id])
        ids.push((await ask(e.s, userId).expect(201)).body.id);
      const answers = await Promise.all([...ids, ...ids].map((id) => start(e.s, id)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((x) => x === 200)).toHaveLength(1);
      expect(statuses.filter((x) => x === 409)).toHaveLength(7);
      expect(answers.some((a) => a.body.code === 'SUPPORT_ACCESS_ACTIVE')).toBe(true);
      expect(await t.db.getRepository(SupportAccess).countBy({ supportUserId: e.user.id, status: 'active' })).toBe(1);
    });
  });

  describe('nothing dangerous: refused inside it with SUPPORT_ACCESS_FORBIDDEN, before any role or step-up check', () => {
    const calls: Array<[string, string, object?]> = [
      ['patch', '/api/users/updatePassword', { oldPassword: PASSWORD, newPassword: 'Another-Horse-77' }],
      ['post', '/auth/step-up', { password: PASSWORD }],
      ['post', '/auth/step-up/passkey-options'],
      ['post', '/mfa/enable'],
      ['post', '/mfa/verify', { token: '123456' }],
      ['post', '/mfa/disable', { token: '123456' }],
      ['post', '/mfa/recovery-codes', { token: '123456' }],
      ['delete', '/mfa/trusted-devices'],
      ['delete', '/mfa/trusted-devices/1'],
      ['post', '/mfa/passkeys/registration-options'],
      ['post', '/mfa/passkeys', {}],
      ['patch', '/mfa/passkeys/1', { name: 'x' }],
      ['delete', '/mfa/passkeys/1'],
      ['post', '/api/api-keys', { name: 'k', scopes: ['users:read'] }],
      ['delete', '/api/api-keys/1'],
      ['post', '/api/webhooks', { url: 'https://example.com/h', events: ['*'] }],
      ['put', '/api/webhooks/1', { events: ['*'] }],
      ['delete', '/api/webhooks/1'],
      ['post', '/api/webhooks/1/rotate-secret'],
      ['post', '/api/webhooks/1/test'],
      ['post', '/api/webhooks/1/deliveries/1/retry'],
      ['post', '/api/log-streams', { type: 'http', url: 'https://example.com/l', token: 't' }],
      ['delete', '/api/log-streams/1'],
      ['post', '/api/log-streams/1/test'],
      ['post', '/api/support-access', { userId: 1, reason: REASON }],
      ['get', '/api/users/export'],
      ['get', '/api/audit-events/export'],
      ['put', '/api/mfa/disableUserMfa', { userId: 1 }],
      ['put', '/api/users/updateRole', { userId: 1, newUserRoleIds: [Role.SITE_ADMIN] }],
      ['post', '/api/sso-connections', {}],
      ['post', '/api/domains', { domain: 'example.com' }],
      ['post', '/api/scim-tokens', { name: 'x' }],
      ['post', '/api/oidc-clients', { name: 'x', type: 'public', redirectUris: ['https://app.example.com/cb'] }],
      ['put', '/api/oidc-clients/1', { name: 'x' }],
      ['post', '/api/oidc-clients/1/rotate-secret'],
      ['delete', '/api/oidc-clients/1'],
      ['delete', '/api/me/apps/some-client'],
    ];

    it.each([
      ['a site admin member (whose role would allow most of them)', Role.SITE_ADMIN],
      ['an analyst member (whose role would allow few)', Role.ANALYST],
    ])('as %s', async (_label, memberRole) => {
      const s = await started('always', memberRole);
      const refused: string[] = [];
      for (const [method, path, body] of [
        ...calls,
        ['put', `/api/organisations/${s.org.id}/security-policy`, { supportAccess: 'always' }] as [
          string,
          string,
          object,
        ],
      ]) {
        const call = (http() as unknown as Record<string, (p: string) => request.Test>)[method];
        const res = await call(path)
          .set(bearer(s.token))
          .send(body ?? {});
        if (res.status !== 403 || res.body.code !== 'SUPPORT_ACCESS_FORBIDDEN')
          refused.push(`${method} ${path}: ${res.status} ${res.body.code}`);
        else expectErrorBody(res, 403);
      }
      expect(refused).toEqual([]);
      // Reading is allowed: the session sees what the member sees.
      await http().get('/api/notifications').set(bearer(s.token)).expect(200);
    });

    it('a password change was not made, and the member’s own sessions are untouched', async () => {
      const s = await started();
      await http()
        .patch('/api/users/updatePassword')
        .set(bearer(s.token))
        .send({ oldPassword: PASSWORD, newPassword: 'Another-Horse-77' });
      await login(t, s.member.email, PASSWORD);
    });
  });

  describe('how it ends', () => {
    it('Stop by the E-Support account: ended at once; the member is e-mailed who, why and when; audit and webhooks', async () => {
      const s = await started();
      const done = await stop(s.e.s, s.id).expect(200);
      expect(done.body).toEqual(expect.objectContaining({ status: 'ended', endedAt: expect.any(String) }));
      expectCode(await http().get('/api/users/current').set(bearer(s.token)), 401, 'SESSION_ENDED');
      expect((await t.db.getRepository(Session).findOneByOrFail({ supportAccessId: s.id })).endedAt).not.toBeNull();
      expect((await row(s.id)).endReason).toBe('stopped');
      const mail = await lastMailTo(t.dataDir, s.member.email);
      expect(mail?.subject).toMatch(/support-access session/i);
      expect(mail?.text).toContain(s.e.user.email);
      expect(mail?.text).toContain(REASON);
      expect(mail?.text).toMatch(/from \w{3}, \d{1,2} \w{3} \d{4}, .* to \w{3}, \d{1,2} \w{3} \d{4}, /);
      const ended = await t.db
        .getRepository(AuditEvent)
        .findOneByOrFail({ type: 'SUPPORT_ACCESS_ENDED', supportAccessId: s.id });
      expect(ended).toEqual(expect.objectContaining({ actorId: s.e.user.id, targetId: s.member.id }));
      expectCode(await stop(s.e.s, s.id), 409, 'SUPPORT_ACCESS_STATE');
    });

    it('the webhooks support_access.started and support_access.ended reach the organisation’s endpoints', async () => {
      const o = await organisation('always');
      const e = await supportAccount();
      await t.db
        .getRepository(IntegrationDelivery)
        .manager.query(
          `INSERT INTO webhook_endpoints ("organisationId", "url", "events", "enabled", "secretSealed") VALUES (${o.org.id}, 'https://hooks.example.com/x', '["support_access.started","support_access.ended"]', ${t.db.options.type === 'postgres' ? 'true' : '1'}, 'sealed')`,
        );
      const asked = await ask(e.s, o.member.id).expect(201);
      await start(e.s, asked.body.id).expect(200);
      await stop(e.s, asked.body.id).expect(200);
      const rows = await t.db.getRepository(IntegrationDelivery).find({ order: { id: 'ASC' } });
      const mine = rows.filter((r) => JSON.parse(r.payload).data?.organisationId === o.org.id);
      expect(mine.map((r) => r.type)).toEqual(['support_access.started', 'support_access.ended']);
      const data = JSON.parse(mine[0].payload).data;
      expect(data).toEqual(expect.objectContaining({ actor: { type: 'user', id: e.user.id }, userId: o.member.id }));
    });

    it('the organisation’s site admins end it; another organisation’s may not', async () => {
      const s = await started();
      expectErrorBody(await stop(m.otherOrgAdmin.session, s.id), 404);
      expectErrorBody(await stop(support(), s.id), 404);
      await stop(s.adminS, s.id).expect(200);
      expect((await row(s.id)).endReason).toBe('ended-by-admin');
      expectCode(await http().get('/api/users/current').set(bearer(s.token)), 401, 'SESSION_ENDED');
    });

    it('after 60 minutes (a controlled clock): refused, and the sweep ends it and e-mails the member', async () => {
      const s = await started();
      clockAt(Date.now() + 59 * 60_000);
      await http().get('/api/users/current').set(bearer(s.token)).expect(200);
      clockAt(Date.now() + 2 * 60_000);
      const late = await http().get('/api/users/current').set(bearer(s.token));
      expect(late.status).toBe(403);
      expect(late.body.message).toBe('jwt expired');
      // The E-Support account's own session cannot extend it by refreshing: the support session has no refresh token.
      expect(await t.app.get(SupportAccessEnding).sweep(Date.now())).toBeGreaterThanOrEqual(1);
      expect(await row(s.id)).toEqual(expect.objectContaining({ status: 'ended', endReason: 'time-limit' }));
      expect((await lastMailTo(t.dataDir, s.member.email))?.text).toContain('60-minute limit');
    });

    it('past its end the session check ends it even with a token that has not expired', async () => {
      const s = await started();
      // The request's end moved into the past: the row, not the token, decides.
      await t.db.getRepository(SupportAccess).update({ id: s.id }, { endsAt: new Date(Date.now() - 1000) });
      expectCode(await http().get('/api/users/current').set(bearer(s.token)), 401, 'SESSION_ENDED');
      await new Promise((r) => setTimeout(r, 200));
      expect(await row(s.id)).toEqual(expect.objectContaining({ status: 'ended', endReason: 'time-limit' }));
    });

    it('force log-off of the member ends it', async () => {
      const s = await started();
      await http()
        .post('/api/userLoginActivities/force-logoff')
        .set(s.adminS.auth)
        .send({ userIds: [s.member.id] })
        .expect(200);
      expectCode(await http().get('/api/users/current').set(bearer(s.token)), 401, 'SESSION_ENDED');
      await new Promise((r) => setTimeout(r, 200));
      expect(await row(s.id)).toEqual(expect.objectContaining({ status: 'ended', endReason: 'session-ended' }));
    });

    it('turning support access off ends the running session at once', async () => {
      const s = await started();
      await http()
        .put(`/api/organisations/${s.org.id}/security-policy`)
        .set(s.adminS.auth)
        .send({ supportAccess: 'never' })
        .expect(200);
      expectCode(await http().get('/api/users/current').set(bearer(s.token)), 401, 'SESSION_ENDED');
      await new Promise((r) => setTimeout(r, 200));
      expect(await row(s.id)).toEqual(expect.objectContaining({ status: 'ended', endReason: 'access-off' }));
    });
  });

  describe('hostile', () => {
    it('an act claim in a normal session’s token grants nothing and changes no audit record', async () => {
      const o = await organisation('always');
      const memberS = await login(t, o.member.email);
      const normal = claims(memberS.accessToken);
      const forged = t.app.get(JwtService).sign(
        {
          sub: normal.sub,
          sid: normal.sid,
          typ: 'access',
          act: { sub: m.byRole.E_SUPPORT.user.id, email: m.byRole.E_SUPPORT.user.email },
        },
        { expiresIn: 900 },
      );
      // Not a support session: the guards treat it as the member's own (no SUPPORT_ACCESS_FORBIDDEN).
      const res = await http().post('/mfa/enable').set(bearer(forged));
      expect(res.status).toBe(200);
      const event = await t.db
        .getRepository(AuditEvent)
        .findOneByOrFail({ type: 'SIGN_IN_SUCCEEDED', targetId: o.member.id });
      expect(event).toEqual(
        expect.objectContaining({ actorId: o.member.id, onBehalfOfId: null, supportAccessId: null }),
      );
      const colleague = await createUser(t, o.org, { roleId: Role.VIEWER });
      await http()
        .put('/api/users/disableUser')
        .set(bearer(reSigned((await login(t, o.admin.email)).accessToken, { act: { sub: 1, email: 'x@y.test' } })))
        .send({ userId: colleague.id, isDisabled: true })
        .expect(200);
      const disabled = await t.db
        .getRepository(AuditEvent)
        .findOneByOrFail({ type: 'ACCESS_CHANGED', targetId: colleague.id });
      expect(disabled).toEqual(
        expect.objectContaining({ actorId: o.admin.id, onBehalfOfId: null, supportAccessId: null }),
      );
    });

    it('a support token replayed after its end, or on another session, is refused', async () => {
      const s = await started();
      await stop(s.e.s, s.id).expect(200);
      expectCode(await http().get('/api/users/current').set(bearer(s.token)), 401, 'SESSION_ENDED');
      // Its act claim copied into a token of the ended session signed anew: still the ended session.
      const again = reSigned(s.token);
      expectCode(await http().get('/api/users/current').set(bearer(again)), 401, 'SESSION_ENDED');
    });

    it('escalation to the member’s step-up: refused, and sensitive calls stay refused after it', async () => {
      const s = await started('always', Role.SITE_ADMIN);
      expectCode(
        await http().post('/auth/step-up').set(bearer(s.token)).send({ password: PASSWORD }),
        403,
        'SUPPORT_ACCESS_FORBIDDEN',
      );
      expectCode(
        await http()
          .post('/api/api-keys')
          .set(bearer(s.token))
          .send({ name: 'k', scopes: ['users:read'] }),
        403,
        'SUPPORT_ACCESS_FORBIDDEN',
      );
      const session = await t.db.getRepository(Session).findOneByOrFail({ supportAccessId: s.id });
      expect(session.authenticatedAt?.getTime()).toBe(0);
    });

    it('a site admin cannot ask for support access to another organisation’s member (or any)', async () => {
      expectErrorBody(await ask(m.byRole.SITE_ADMIN.session, m.otherOrgAdmin.user.id), 403);
      expect(await t.db.getRepository(User).countBy({ id: m.otherOrgAdmin.user.id })).toBe(1);
    });
  });
});
