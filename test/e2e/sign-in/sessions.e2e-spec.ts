import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { ONLINE_OTHERS } from '../../../src/identity/sessions/sessions.service';
import { runSql, storedDate } from '../../../src/platform/database/raw-sql';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { expectedStatuses } from '../../utils/org-admin';
import { createTestApp, TestApp } from '../../utils/test-app';

const ADMINS = ['SITE_ADMIN', 'ADMINISTRATOR'];

describe('User sessions and force log-off (spec 001 §2.14, §3, §4, §7, §8)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const list = (auth: object) =>
    request(t.http)
      .get('/api/userLoginActivities/user-sessions')
      .set(auth as Record<string, string>);
  const forceLogoff = (auth: object, userIds: unknown) =>
    request(t.http)
      .post('/api/userLoginActivities/force-logoff')
      .set(auth as Record<string, string>)
      .send({ userIds });

  describe('GET api/userLoginActivities/user-sessions', () => {
    it("lists every user of the caller's organisation with status, online sessions, last login and last refresh, and the maximum", async () => {
      const org = await createOrganisation(t, { maxConcurrentUsers: 7 });
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN, email: 'a-admin@sessions.test' });
      const twice = await createUser(t, org, {
        email: 'b-twice@sessions.test',
        roleId: Role.STANDARD_ADMIN,
        isAdministrator: true,
      });
      const never = await createUser(t, org, { email: 'c-never@sessions.test' });
      const stale = await createUser(t, org, { email: 'd-stale@sessions.test', roleId: Role.VIEWER });
      const adminSession = await login(t, admin.email);
      await login(t, twice.email);
      await login(t, twice.email);
      await login(t, stale.email);
      // A session not refreshed within the access-token lifetime (15 minutes) is not online.
      await t.db
        .getRepository(Session)
        .update({ userId: stale.id }, { lastRefreshAt: new Date(Date.now() - 16 * 60 * 1000) });

      const res = await list(adminSession.auth).expect(200);
      expect(res.body.maxConcurrentUsers).toBe(7);
      expect(res.body.userSessions.map((r: { email: string }) => r.email)).toEqual([
        admin.email,
        twice.email,
        never.email,
        stale.email,
      ]);
      const [a, b, c, d] = res.body.userSessions;
      expect(a).toMatchObject({ id: admin.id, roles: ['Site Admin'], status: 'online', onlineSessions: 1 });
      expect(b).toMatchObject({
        id: twice.id,
        roles: ['Standard Admin', 'Administrator'],
        status: 'online',
        onlineSessions: 2,
      });
      expect(c).toEqual({
        id: never.id,
        email: never.email,
        roles: ['Standard Admin'],
        status: 'offline',
        onlineSessions: 0,
        lastLoginTime: null,
        lastRefreshTime: null,
        canForceLogoff: true,
      });
      expect(d).toMatchObject({ status: 'offline', onlineSessions: 0 });
      for (const row of [a, b]) {
        expect(Math.abs(new Date(row.lastLoginTime).getTime() - Date.now())).toBeLessThan(60_000);
        expect(Math.abs(new Date(row.lastRefreshTime).getTime() - Date.now())).toBeLessThan(60_000);
      }
      expect(Date.now() - new Date(d.lastRefreshTime).getTime()).toBeGreaterThan(15 * 60 * 1000);
    });

    it('a refresh updates the last refresh time and keeps the user online', async () => {
      const org = await createOrganisation(t);
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const s = await login(t, admin.email);
      await t.db
        .getRepository(Session)
        .update({ userId: admin.id }, { lastRefreshAt: new Date(Date.now() - 20 * 60 * 1000) });
      const refreshed = await request(t.http).post('/refresh').set('Cookie', s.cookie).expect(200);
      const res = await list({ Authorization: `Bearer ${refreshed.body.newAccessToken}` }).expect(200);
      expect(res.body.userSessions[0]).toMatchObject({ status: 'online', onlineSessions: 1 });
      expect(Date.now() - new Date(res.body.userSessions[0].lastRefreshTime).getTime()).toBeLessThan(60_000);
    });

    it('shows only the own organisation and answers every role as the route table says', async () => {
      const res = await list(m.byRole.SITE_ADMIN.session.auth).expect(200);
      const emails = res.body.userSessions.map((r: { email: string }) => r.email);
      expect(emails).toContain(m.byRole.VIEWER.user.email);
      expect(emails).not.toContain(m.otherOrgAdmin.user.email);
      expect(emails).not.toContain(m.byRole.E_SUPPORT.user.email);
      expect(await statusesByRole(m, (a) => list(a.session.auth))).toEqual(expectedStatuses(ADMINS, 200));
      const other = await list(m.otherOrgAdmin.session.auth).expect(200);
      expect(other.body.userSessions.map((r: { email: string }) => r.email)).toEqual([m.otherOrgAdmin.user.email]);
      await request(t.http).get('/api/userLoginActivities/user-sessions').expect(401);
    });

    it('keeps GET api/userLoginActivities/:userId (last login)', async () => {
      const res = await request(t.http)
        .get(`/api/userLoginActivities/${m.byRole.VIEWER.user.id}`)
        .set(m.byRole.SITE_ADMIN.session.auth)
        .expect(200);
      expect(res.body).toMatchObject({ userId: m.byRole.VIEWER.user.id, loginDateTime: expect.any(String) });
    });
  });

  describe('POST api/userLoginActivities/force-logoff', () => {
    it("ends the victims' sessions at once: their very next call is refused and their refresh fails; others are untouched", async () => {
      const org = await createOrganisation(t);
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const victim = await createUser(t, org);
      const bystander = await createUser(t, org);
      const adminS = await login(t, admin.email);
      const v1 = await login(t, victim.email);
      const v2 = await login(t, victim.email);
      const b = await login(t, bystander.email);
      await request(t.http).get('/api/users/current').set(v1.auth).expect(200);

      const res = await forceLogoff(adminS.auth, [victim.id]).expect(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Successfully marked selected user(s) for force log off',
        sessionsEnded: 2,
      });

      for (const s of [v1, v2]) {
        const next = await request(t.http).get('/api/users/current').set(s.auth).expect(401);
        expect(next.body.code).toBe('SESSION_ENDED');
        await request(t.http).post('/refresh').set('Cookie', s.cookie).expect(401);
      }
      await request(t.http).get('/api/users/current').set(b.auth).expect(200);
      await request(t.http).get('/api/users/current').set(adminS.auth).expect(200);
      const rows = (await list(adminS.auth).expect(200)).body.userSessions;
      expect(rows.find((r: { id: number }) => r.id === victim.id)).toMatchObject({
        status: 'offline',
        onlineSessions: 0,
      });
      const ended = await t.db.getRepository(Session).findBy({ userId: victim.id });
      expect(ended.every((s) => s.endReason === 'force-logoff' && s.endedAt)).toBe(true);
      // The victim may sign in again.
      await login(t, victim.email);
    });

    it("refuses another organisation's user with 404 and ends nothing, even mixed with own users", async () => {
      const victim = await createUser(t, m.org);
      const vs = await login(t, victim.email);
      const res = await forceLogoff(m.byRole.SITE_ADMIN.session.auth, [victim.id, m.otherOrgAdmin.user.id]).expect(404);
      expect(res.body.code).toBe('NOT_FOUND');
      await request(t.http).get('/api/users/current').set(vs.auth).expect(200);
      await request(t.http).get('/api/users/current').set(m.otherOrgAdmin.session.auth).expect(200);
      await forceLogoff(m.otherOrgAdmin.session.auth, [victim.id]).expect(404);
      await forceLogoff(m.byRole.SITE_ADMIN.session.auth, [999999]).expect(404);
    });

    it('refuses a bad body', async () => {
      for (const userIds of [[], undefined, 'x', ['1'], [1.5]])
        await forceLogoff(m.byRole.SITE_ADMIN.session.auth, userIds).expect(400);
    });

    it('answers every role as the route table says', async () => {
      const victim = await createUser(t, m.org);
      const statuses = await statusesByRole(m, (a) => forceLogoff(a.session.auth, [victim.id]));
      expect(statuses).toEqual(expectedStatuses(ADMINS, 200));
      await request(t.http)
        .post('/api/userLoginActivities/force-logoff')
        .send({ userIds: [victim.id] })
        .expect(401);
    });
  });

  describe('the concurrent-user limit at sign-in', () => {
    it("refuses a sign-in beyond the organisation's maximum with a clear message; the same user again, a stale session or a forced log-off frees a place", async () => {
      const org = await createOrganisation(t, { maxConcurrentUsers: 2 });
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const u2 = await createUser(t, org);
      const u3 = await createUser(t, org);
      const adminS = await login(t, admin.email);
      await login(t, u2.email);
      const refused = await request(t.http)
        .post('/auth/login')
        .send({ username: u3.email, password: 'Correct-Horse-9', acceptToS: true })
        .expect(403);
      expect(refused.body).toMatchObject({
        success: false,
        code: 'CONCURRENT_USERS_EXCEEDED',
        message: expect.stringContaining('reached the max allowed concurrent users'),
      });
      expect(refused.headers['set-cookie']).toBeUndefined();
      // A user already online signs in again without taking a second place.
      await login(t, u2.email);

      const listed = await list(adminS.auth).expect(200);
      expect(listed.body.maxConcurrentUsers).toBe(2);
      expect(listed.body.userSessions.filter((r: { status: string }) => r.status === 'online')).toHaveLength(2);

      await forceLogoff(adminS.auth, [u2.id]).expect(200);
      const u3s = await login(t, u3.email);
      await request(t.http)
        .post('/auth/login')
        .send({ username: u2.email, password: 'Correct-Horse-9', acceptToS: true })
        .expect(403);

      // A session idle beyond the access-token lifetime no longer counts.
      await t.db
        .getRepository(Session)
        .update({ userId: u3.id }, { lastRefreshAt: new Date(Date.now() - 16 * 60 * 1000) });
      await login(t, u2.email);
      expect(u3s.accessToken).toBeTruthy();
    });

    it('counts each account with a session online once, however many sessions it keeps open, and nothing else', async () => {
      const org = await createOrganisation(t);
      const other = await createOrganisation(t);
      const [many, once, stale, ended, me] = await Promise.all(
        ['many', 'once', 'stale', 'ended', 'me'].map((n) => createUser(t, org, { email: `${n}@online-count.test` })),
      );
      const outsider = await createUser(t, other, { email: 'outsider@online-count.test' });
      const now = Date.now();
      const at = (minutesAgo: number) => new Date(now - minutesAgo * 60 * 1000);
      const sessions = t.db.getRepository(Session);
      const open = (userId: number, organisationId: number, lastRefreshAt: Date, endedAt: Date | null = null) =>
        sessions.insert({
          id: randomUUID(),
          userId,
          organisationId,
          createdAt: lastRefreshAt,
          lastRefreshAt,
          endedAt,
          method: 'password',
        });
      for (let i = 0; i < 5; i++) await open(many.id, org.id, at(i));
      await open(many.id, org.id, at(60));
      await open(once.id, org.id, at(1));
      await open(stale.id, org.id, at(16));
      await open(ended.id, org.id, at(1), at(0));
      await open(me.id, org.id, at(1));
      await open(outsider.id, other.id, at(1));
      const others = async (userId: number) => {
        const [row] = await runSql<{ n: number | string }>(t.db, ONLINE_OTHERS, [
          org.id,
          storedDate(t.db, at(15)),
          userId,
        ]);
        return Number(row.n);
      };
      expect(await others(me.id)).toBe(2);
      expect(await others(many.id)).toBe(2);
      expect(await others(stale.id)).toBe(3);
    });

    it("looks into each of the organisation's accounts' online sessions through an index", async () => {
      const params = [1, new Date(), 1];
      if (t.db.options.type === 'sqlite') {
        const plan = (await t.db.query(`EXPLAIN QUERY PLAN ${ONLINE_OTHERS}`, params)) as { detail: string }[];
        const steps = plan.map((p) => p.detail).join('\n');
        expect(steps).toMatch(/SEARCH u USING COVERING INDEX IDX_users_org_access \(organisationId=\?\)/);
        expect(steps).toMatch(
          /SEARCH s (EXISTS )?USING COVERING INDEX IDX_sessions_user_online \(userId=\? AND lastRefreshAt>\?\)/,
        );
      } else {
        // Few rows here, so PostgreSQL would read the tables themselves: asked for its best indexes instead.
        const q = t.db.createQueryRunner();
        await q.startTransaction();
        try {
          await q.query('SET LOCAL enable_seqscan = off');
          let n = 0;
          const pg = ONLINE_OTHERS.replace(/\?/g, () => `$${++n}`);
          const plan = (await q.query(`EXPLAIN ${pg}`, params)) as { 'QUERY PLAN': string }[];
          expect(plan.map((p) => p['QUERY PLAN']).join('\n')).toMatch(
            /Index Only Scan using "IDX_sessions_user_online"/,
          );
        } finally {
          await q.rollbackTransaction();
          await q.release();
        }
      }
    });
  });
});
