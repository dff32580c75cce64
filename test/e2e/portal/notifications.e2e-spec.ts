import { JwtService } from '@nestjs/jwt';
import { mkdirSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { FileLinksService } from '../../../src/portal/notifications/file-links.service';
import {
  NotificationSockets,
  SESSIONS_CHANGED_COALESCE_MS,
} from '../../../src/portal/notifications/notification-sockets.service';
import { NotificationsGateway } from '../../../src/portal/notifications/notifications.gateway';
import { SessionsService } from '../../../src/identity/sessions/sessions.service';
import { SessionAuthService } from '../../../src/identity/credentials/session-auth.service';
import { TokenService } from '../../../src/identity/credentials/token.service';
import { NotificationItem, SOCKET_ERRORS, SOCKET_EVENTS } from '../../../src/shared/portal/notifications';
import { Role } from '../../../src/shared/roles';
import { User } from '../../../src/platform/database/entities/user.entity';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

const KEY = 'test-service-api-key-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Notifications (spec 001 §2.7, §3, §4, §7, §9)', () => {
  let t: TestApp;
  let baseUrl: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(() => t.close());

  /** A socket.io client that records what it receives. */
  function connect(token: string | undefined) {
    const socket = io(baseUrl, {
      path: '/socket.io',
      query: token === undefined ? {} : { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    const received: NotificationItem[] = [];
    const sessionEvents: Array<{ reason: string }> = [];
    socket.on(SOCKET_EVENTS.NOTIFICATION, (n: NotificationItem) => received.push(n));
    socket.on(SOCKET_EVENTS.SESSION, (e: { reason: string }) => sessionEvents.push(e));
    const ready = new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (e) => reject(e));
    });
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    return { socket, received, sessionEvents, ready, disconnected };
  }

  async function connected(session: LoggedIn) {
    const c = connect(session.accessToken);
    await c.ready;
    return c;
  }

  async function until(check: () => boolean, ms = 3000) {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await sleep(20);
    }
  }

  const publish = (body: object, key = KEY) =>
    request(t.http).post('/api/notifications').set('X-Api-Key', key).send(body);
  const list = (s: LoggedIn) => request(t.http).get('/api/notifications').set(s.auth);

  async function orgWithUsers(n: number) {
    const org = await createOrganisation(t);
    const users: Array<{ user: User; session: LoggedIn }> = [];
    for (let i = 0; i < n; i++) {
      const user = await createUser(t, org);
      users.push({ user, session: await login(t, user.email) });
    }
    return { org, users };
  }

  describe('the socket', () => {
    it('refuses a connection without a token', async () => {
      await expect(connect(undefined).ready).rejects.toThrow('Authentication required.');
    });

    it('refuses an expired token with "jwt expired", a forged token, and a token whose session ended', async () => {
      const { users } = await orgWithUsers(1);
      const jwt = t.app.get(JwtService);
      const payload = JSON.parse(Buffer.from(users[0].session.accessToken.split('.')[1], 'base64url').toString());
      const expired = jwt.sign({
        sub: payload.sub,
        sid: payload.sid,
        typ: 'access',
        exp: Math.floor(Date.now() / 1000) - 60,
      });
      await expect(connect(expired).ready).rejects.toThrow('jwt expired');

      const forged = new JwtService({ secret: 'x'.repeat(48) }).sign({
        sub: payload.sub,
        sid: payload.sid,
        typ: 'access',
      });
      await expect(connect(forged).ready).rejects.toThrow('Invalid token.');

      const challenge = jwt.sign({ sub: payload.sub, typ: 'challenge', pur: 'mfa' });
      await expect(connect(challenge).ready).rejects.toThrow('Invalid token.');

      await request(t.http)
        .post('/auth/logout')
        .set(users[0].session.auth)
        .expect((r) => expect(r.status).toBeLessThan(300));
      await expect(connect(users[0].session.accessToken).ready).rejects.toThrow(
        'Your session has ended. Please log in again.',
      );
    });

    it('refuses an account that must still set up enforced MFA, and accepts one whose passkey satisfies it', async () => {
      const { users } = await orgWithUsers(1);
      const id = users[0].user.id;
      await t.db.getRepository(User).update({ id }, { isMFAEnforced: true, isMFAEnabled: false, hasPasskey: false });
      await expect(connect(users[0].session.accessToken).ready).rejects.toThrow(SOCKET_ERRORS.MFA_REQUIRED);
      await t.db.getRepository(User).update({ id }, { hasPasskey: true });
      await connected(users[0].session);
    });

    it("authenticates a socket without keeping its session's row or its token for the signed-in path (socket memory)", async () => {
      const a = await orgWithUsers(1);
      const { user, session } = a.users[0];
      const kept = (t.app.get(SessionAuthService) as unknown as { kept: Map<string, unknown> }).kept;
      const verified = (t.app.get(TokenService) as unknown as { verified: Map<string, unknown> }).verified;
      const { sid } = JSON.parse(Buffer.from(session.accessToken.split('.')[1], 'base64url').toString()) as {
        sid: string;
      };
      const c = await connected(session);
      await publish({ userId: user.id, type: 'OTHER', content: { message: 'Authenticated' } }).expect(201);
      await until(() => c.received.length === 1);
      expect(kept.has(sid)).toBe(false);
      expect(verified.has(session.accessToken)).toBe(false);
      // A call of the signed-in path keeps it (SQLite; PostgreSQL is asked on every call).
      await request(t.http).get('/api/users/current').set(session.auth).expect(200);
      expect(kept.has(sid)).toBe(t.db.options.type === 'sqlite');
      expect(verified.has(session.accessToken)).toBe(true);
    });

    it('refuses a disabled account', async () => {
      const { users } = await orgWithUsers(1);
      await t.db.getRepository(User).update({ id: users[0].user.id }, { isDisabled: true });
      await expect(connect(users[0].session.accessToken).ready).rejects.toThrow('Your session has ended');
    });

    it('delivers a user notification to that user only, and an organisation notification to its members only', async () => {
      const a = await orgWithUsers(2);
      const b = await orgWithUsers(1);
      const [a1, a2, b1] = [
        await connected(a.users[0].session),
        await connected(a.users[1].session),
        await connected(b.users[0].session),
      ];
      // The same user in a second tab gets it too.
      const a1Again = await connected(a.users[0].session);

      const own = await publish({
        userId: a.users[0].user.id,
        type: 'OTHER',
        content: { message: 'For a1 only' },
      }).expect(201);
      await until(() => a1.received.length === 1 && a1Again.received.length === 1);
      expect(a1.received[0]).toEqual({
        notificationId: own.body.notificationId,
        read: false,
        date: expect.any(String),
        type: 'OTHER',
        content: { message: 'For a1 only' },
      });

      await publish({
        organisationId: a.org.id,
        type: 'RELEASE_NOTES',
        content: { summary: 'Version 2 is out' },
      }).expect(201);
      await until(() => a1.received.length === 2 && a2.received.length === 1);
      await sleep(200);
      expect(a2.received.map((n) => n.content.summary ?? n.content.message)).toEqual(['Version 2 is out']);
      expect(b1.received).toEqual([]);

      await publish({ organisationId: b.org.id, type: 'OTHER', content: { message: 'For B' } }).expect(201);
      await until(() => b1.received.length === 1);
      await sleep(200);
      expect(a1.received).toHaveLength(2);
      expect(a2.received).toHaveLength(1);
    });

    it('keeps what arrived while a user was offline: the list after reconnection has it, and live delivery resumes', async () => {
      const a = await orgWithUsers(2);
      const first = await connected(a.users[0].session);
      first.socket.disconnect();
      await publish({
        organisationId: a.org.id,
        type: 'CONTRACT_NOTES',
        content: { message: 'While you were away' },
      }).expect(201);
      await publish({
        userId: a.users[0].user.id,
        type: 'IMPORT_FILE',
        content: { fileName: 'holdings.csv', status: 'done' },
      }).expect(201);

      const again = await connected(a.users[0].session);
      const res = await list(a.users[0].session).expect(200);
      expect(res.body.map((n: NotificationItem) => n.type)).toEqual(['IMPORT_FILE', 'CONTRACT_NOTES']);
      expect(res.body[0]).toMatchObject({ read: false, content: { fileName: 'holdings.csv', status: 'done' } });
      expect(new Date(res.body[0].date).getTime()).toBeGreaterThan(Date.now() - 60_000);

      await publish({ organisationId: a.org.id, type: 'OTHER', content: { message: 'Live again' } }).expect(201);
      await until(() => again.received.length === 1);
      // The other member, who never connected, finds both organisation notifications but not a1's own.
      expect((await list(a.users[1].session).expect(200)).body.map((n: NotificationItem) => n.type)).toEqual([
        'OTHER',
        'CONTRACT_NOTES',
      ]);
    });

    it('drops the socket on logout, on force log-off and when the user is disabled', async () => {
      const a = await orgWithUsers(3);
      const [c1, c2, c3] = [
        await connected(a.users[0].session),
        await connected(a.users[1].session),
        await connected(a.users[2].session),
      ];

      // A second tab of the first session goes with it; the same user's other session stays.
      const c1Tab = await connected(a.users[0].session);
      const c1Elsewhere = await connected(await login(t, a.users[0].user.email));

      await request(t.http).post('/auth/logout').set(a.users[0].session.auth);
      expect(await c1.disconnected).toBe('io server disconnect');
      expect(await c1Tab.disconnected).toBe('io server disconnect');
      expect(c1.sessionEvents).toEqual([{ reason: 'session-ended' }]);
      expect(c1Tab.sessionEvents).toEqual([{ reason: 'session-ended' }]);
      await publish({ userId: a.users[0].user.id, type: 'OTHER', content: { message: 'still here' } }).expect(201);
      await until(() => c1Elsewhere.received.length === 1);
      expect(c1Elsewhere.socket.connected).toBe(true);
      c1Elsewhere.socket.disconnect();

      await t.app.get(SessionsService).endAllForUsers([a.users[1].user.id], 'force-logoff');
      expect(await c2.disconnected).toBe('io server disconnect');

      await t.app.get(SessionsService).endAllForUsers([a.users[2].user.id], 'disabled');
      expect(await c3.disconnected).toBe('io server disconnect');

      // Dropped sockets receive nothing more.
      await publish({ organisationId: a.org.id, type: 'OTHER', content: { message: 'after' } }).expect(201);
      await sleep(200);
      expect([c1, c2, c3].map((c) => c.received.length)).toEqual([0, 0, 0]);
    });

    it('keeps neither the access token nor the upgrade request of a connected socket, which still closes cleanly', async () => {
      const { org, users } = await orgWithUsers(1);
      const engine = t.app.get(NotificationsGateway).server.engine;
      const before = engine.clientsCount;
      const c = await connected(users[0].session);
      await until(() => t.app.get(NotificationsGateway).server.sockets.sockets.size > 0);
      const server = [...t.app.get(NotificationsGateway).server.sockets.sockets.values()].find(
        (s) => (s.data as { userId: number }).userId === users[0].user.id,
      )!;
      const tcp = (server.conn as unknown as { transport: { socket: { _socket: import('node:net').Socket } } })
        .transport.socket._socket;
      // Once joined: no token in what the socket keeps, no request, no listener that holds the request.
      await until(() => (server.conn as unknown as { request: unknown }).request === null);
      expect(JSON.stringify(server.handshake)).not.toContain(users[0].session.accessToken);
      expect(server.handshake.url).toBe('/socket.io');
      expect(tcp.listeners('close').every((l) => l.name !== '')).toBe(true);
      // engine.io's pre-upgrade error guard is gone (the transport's own error listener stays), and the
      // disconnect hook is a plain listener, not a once-wrapper.
      const ws = (server.conn as unknown as { transport: { socket: import('node:events').EventEmitter } }).transport
        .socket;
      expect(ws.listeners('error').map((l) => l.name)).not.toContain('onUpgradeError');
      expect(ws.listenerCount('error')).toBeGreaterThan(0);
      expect(server.rawListeners('disconnect').some((l) => 'listener' in l)).toBe(false);
      // No once-wrapper kept for the connection's life: the closes and the transport's error are plain listeners,
      // and the transport's handshake-only 'headers' listener is gone.
      const transport = (server.conn as unknown as { transport: import('node:events').EventEmitter }).transport;
      const engineSocket = server.conn as unknown as import('node:events').EventEmitter;
      for (const [emitter, event] of [
        [ws, 'close'],
        [transport, 'close'],
        [transport, 'error'],
        [engineSocket, 'close'],
      ] as const) {
        expect(emitter.listenerCount(event)).toBeGreaterThan(0);
        expect(emitter.rawListeners(event).some((l) => 'listener' in l)).toBe(false);
      }
      expect(transport.listenerCount('headers')).toBe(0);
      // One room, its organisation's: the user and the session are indexed by NotificationSockets, not rooms.
      expect([...server.rooms]).toEqual([`org:${org.id}`]);
      const sockets = t.app.get(NotificationSockets);
      const indexed = () => [
        sockets['bySession'].get((server.data as { sessionId: string }).sessionId).length,
        sockets['byUser'].get(users[0].user.id).length,
      ];
      expect(indexed()).toEqual([1, 1]);
      // Delivery is intact (one frame per socket) and the engine's count falls back when the client leaves.
      await publish({ organisationId: org.id, type: 'OTHER', content: { message: 'é ✓ intact' } }).expect(201);
      await until(() => c.received.length === 1);
      expect(c.received[0].content).toEqual({ message: 'é ✓ intact' });
      c.socket.disconnect();
      await until(() => engine.clientsCount === before);
      expect(indexed()).toEqual([0, 0]);
      // A connection that drops without a goodbye (its TCP socket destroyed) is counted out and unindexed too.
      const d = await connected(users[0].session);
      await until(() => engine.clientsCount === before + 1 && indexed()[0] === 1);
      const dropped = [...t.app.get(NotificationsGateway).server.sockets.sockets.values()].find(
        (s) => (s.data as { userId: number }).userId === users[0].user.id,
      )!;
      (
        dropped.conn as unknown as { transport: { socket: { _socket: import('node:net').Socket } } }
      ).transport.socket._socket.destroy();
      await until(() => engine.clientsCount === before);
      expect(indexed()).toEqual([0, 0]);
      d.socket.disconnect();
    });

    it("tells an organisation's user administrators, and no one else, when its sessions change (one message per burst)", async () => {
      const a = await createOrganisation(t);
      const b = await createOrganisation(t);
      const admin = await createUser(t, a, { roleId: Role.SITE_ADMIN });
      const analyst = await createUser(t, a, { roleId: Role.ANALYST });
      const member = await createUser(t, a, { roleId: Role.VIEWER });
      const otherAdmin = await createUser(t, b, { roleId: Role.SITE_ADMIN });
      const watch = async (user: User) => {
        const c = await connected(await login(t, user.email));
        const changes: number[] = [];
        c.socket.on(SOCKET_EVENTS.SESSIONS_CHANGED, () => changes.push(Date.now()));
        return changes;
      };
      const [adminSees, analystSees, otherSees] = [await watch(admin), await watch(analyst), await watch(otherAdmin)];
      // The watchers' own sign-ins have been announced by now; count from here.
      await sleep(1500);
      for (const seen of [adminSees, analystSees, otherSees]) seen.length = 0;

      // Sign-ins at once are announced together (never twice within SESSIONS_CHANGED_COALESCE_MS).
      await Promise.all([login(t, member.email), login(t, member.email), login(t, member.email)]);
      await until(() => adminSees.length >= 1);
      await sleep(SESSIONS_CHANGED_COALESCE_MS + 300);
      const gaps = adminSees.slice(1).map((at, i) => at - adminSees[i]);
      expect(gaps.every((gap) => gap >= SESSIONS_CHANGED_COALESCE_MS - 50)).toBe(true);
      // A sign-in and a force log-off are announced too.
      const before = adminSees.length;
      const adminSession = await login(t, admin.email);
      await until(() => adminSees.length === before + 1);
      const afterOwnLogin = adminSees.length;
      await request(t.http)
        .post('/api/userLoginActivities/force-logoff')
        .set(adminSession.auth)
        .send({ userIds: [member.id] })
        .expect(200);
      await until(() => adminSees.length === afterOwnLogin + 1);
      // Not to members without the sessions page, nor to another organisation.
      expect(analystSees).toHaveLength(0);
      expect(otherSees).toHaveLength(0);
    });

    it('drops the socket when its access token expires', async () => {
      const { users } = await orgWithUsers(1);
      const payload = JSON.parse(Buffer.from(users[0].session.accessToken.split('.')[1], 'base64url').toString());
      const short = t.app
        .get(JwtService)
        .sign({ sub: payload.sub, sid: payload.sid, typ: 'access', exp: Math.floor(Date.now() / 1000) + 3 });
      const c = connect(short);
      await c.ready;
      expect(await c.disconnected).toBe('io server disconnect');
      expect(c.sessionEvents).toEqual([{ reason: 'token-expired' }]);
    });
  });

  describe('reading and dismissing', () => {
    it('dismissing an organisation notification hides it for that user only; Dismiss All hides everything so far', async () => {
      const a = await orgWithUsers(2);
      const [u1, u2] = a.users.map((u) => u.session);
      const n1 = (await publish({ organisationId: a.org.id, type: 'OTHER', content: { message: 'one' } })).body
        .notificationId;
      const n2 = (await publish({ organisationId: a.org.id, type: 'OTHER', content: { message: 'two' } })).body
        .notificationId;

      await request(t.http).post(`/api/notifications/${n1}/read`).set(u1.auth).expect(200);
      expect((await list(u1)).body.map((n: NotificationItem) => [n.notificationId, n.read])).toEqual([
        [n2, false],
        [n1, true],
      ]);
      expect((await list(u2)).body.map((n: NotificationItem) => n.read)).toEqual([false, false]);

      await request(t.http).post(`/api/notifications/${n1}/dismiss`).set(u1.auth).expect(200, { success: true });
      expect((await list(u1)).body.map((n: NotificationItem) => n.notificationId)).toEqual([n2]);
      expect((await list(u2)).body.map((n: NotificationItem) => n.notificationId)).toEqual([n2, n1]);

      await request(t.http).post('/api/notifications/dismiss-all').set(u2.auth).expect(200, { success: true });
      expect((await list(u2)).body).toEqual([]);
      expect((await list(u1)).body).toHaveLength(1);

      const n3 = (await publish({ organisationId: a.org.id, type: 'OTHER', content: { message: 'three' } })).body
        .notificationId;
      expect((await list(u2)).body.map((n: NotificationItem) => n.notificationId)).toEqual([n3]);
      // Dismiss All on an empty list changes nothing and succeeds.
      await request(t.http).post('/api/notifications/dismiss-all').set(u2.auth).expect(200);
      await request(t.http).post('/api/notifications/dismiss-all').set(u2.auth).expect(200);
      expect((await list(u2)).body).toEqual([]);
    });

    it("answers 404 for another organisation's notification and for another user's own", async () => {
      const a = await orgWithUsers(2);
      const b = await orgWithUsers(1);
      const foreign = (await publish({ organisationId: b.org.id, type: 'OTHER', content: { message: 'B' } })).body
        .notificationId;
      const personal = (await publish({ userId: a.users[1].user.id, type: 'OTHER', content: { message: 'a2' } })).body
        .notificationId;
      for (const id of [foreign, personal]) {
        await request(t.http).post(`/api/notifications/${id}/dismiss`).set(a.users[0].session.auth).expect(404);
        await request(t.http).post(`/api/notifications/${id}/read`).set(a.users[0].session.auth).expect(404);
      }
      await request(t.http).post('/api/notifications/abc/dismiss').set(a.users[0].session.auth).expect(400);
      expect((await list(b.users[0].session)).body.map((n: NotificationItem) => n.notificationId)).toEqual([foreign]);
      expect((await list(a.users[1].session)).body.map((n: NotificationItem) => n.notificationId)).toEqual([personal]);
    });

    describe('every signed-in role uses its own notifications', () => {
      let m: RoleMatrix;
      beforeAll(async () => {
        m = await createRoleMatrix(t);
      });

      it('GET, dismiss, dismiss-all and read: 200 for every role, 401 without a token', async () => {
        const all = Object.keys(m.byRole);
        expect(
          Object.values(await statusesByRole(m, (a) => request(t.http).get('/api/notifications').set(a.session.auth))),
        ).toEqual(all.map(() => 200));
        expect(
          Object.values(
            await statusesByRole(m, (a) => request(t.http).post('/api/notifications/dismiss-all').set(a.session.auth)),
          ),
        ).toEqual(all.map(() => 200));
        const statuses: number[] = [];
        for (const actor of Object.values(m.byRole)) {
          const id = (await publish({ userId: actor.user.id, type: 'OTHER', content: { message: 'mine' } })).body
            .notificationId;
          statuses.push((await request(t.http).post(`/api/notifications/${id}/read`).set(actor.session.auth)).status);
          statuses.push(
            (await request(t.http).post(`/api/notifications/${id}/dismiss`).set(actor.session.auth)).status,
          );
        }
        expect(statuses).toEqual(all.flatMap(() => [200, 200]));
        await request(t.http).get('/api/notifications').expect(401);
        await request(t.http).post('/api/notifications/dismiss-all').expect(401);
      });

      it("an organisation notification reaches every role of it, and E-Support (vendor) and the other organisation's admin see none", async () => {
        await publish({ organisationId: m.org.id, type: 'OTHER', content: { message: 'all hands' } }).expect(201);
        for (const [code, actor] of Object.entries(m.byRole)) {
          const messages = (await list(actor.session)).body.map((n: NotificationItem) => n.content.message);
          expect([code, messages]).toEqual([code, code === 'E_SUPPORT' ? [] : ['all hands']]);
        }
        expect((await list(m.otherOrgAdmin.session)).body).toEqual([]);
      });

      it('process-log check: every role, own organisation only', async () => {
        const dir = join(t.dataDir, 'process-logs', String(m.org.id));
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'PF-1.log'), 'warning: something odd\n');
        const statuses = await statusesByRole(m, (a) =>
          request(t.http).get('/api/processedData/processLogUrl/PF-1').set(a.session.auth),
        );
        expect(Object.values(statuses)).toEqual(Object.keys(m.byRole).map(() => 200));

        const mine = await request(t.http)
          .get('/api/processedData/processLogUrl/PF-1')
          .set(m.byRole.ANALYST.session.auth)
          .expect(200);
        expect(mine.body).toEqual({
          url: expect.stringMatching(new RegExp(`^/files/process-logs/${m.org.id}/PF-1\\.log\\?expires=\\d+&sig=`)),
          fileExists: true,
        });
        const file = await request(t.http).get(mine.body.url).buffer(true).expect(200);
        expect(file.body.toString()).toBe('warning: something odd\n');
        expect(file.headers['content-disposition']).toContain('attachment');

        expect(
          (
            await request(t.http)
              .get('/api/processedData/processLogUrl/PF-1')
              .set(m.otherOrgAdmin.session.auth)
              .expect(200)
          ).body,
        ).toEqual({
          url: null,
          fileExists: false,
        });
        expect(
          (
            await request(t.http)
              .get('/api/processedData/processLogUrl/PF-2')
              .set(m.byRole.ANALYST.session.auth)
              .expect(200)
          ).body,
        ).toEqual({
          url: null,
          fileExists: false,
        });
        await request(t.http)
          .get('/api/processedData/processLogUrl/..%2F..%2Fjwt-secret')
          .set(m.byRole.ANALYST.session.auth)
          .expect(400);
        await request(t.http).get('/api/processedData/processLogUrl/PF-1').expect(401);
      });
    });
  });

  describe('publishing (X-Api-Key)', () => {
    it('refuses a missing or wrong key and a user token', async () => {
      const { org, users } = await orgWithUsers(1);
      const body = { organisationId: org.id, type: 'OTHER', content: { message: 'x' } };
      await request(t.http).post('/api/notifications').send(body).expect(401);
      await publish(body, 'wrong-key-wrong-key-wrong').expect(401);
      await request(t.http).post('/api/notifications').set(users[0].session.auth).send(body).expect(401);
      expect((await list(users[0].session)).body).toEqual([]);
    });

    it('validates the target, the type and the content by type', async () => {
      const { org, users } = await orgWithUsers(1);
      const other = await createOrganisation(t);
      const bad: Array<[object, RegExp]> = [
        [{ organisationId: org.id, type: 'NOPE', content: {} }, /type must be one of REPORT/],
        [{ type: 'OTHER', content: { message: 'x' } }, /Give userId or organisationId/],
        [{ organisationId: 999999, type: 'OTHER', content: { message: 'x' } }, /names no organisation/],
        [{ userId: 999999, type: 'OTHER', content: { message: 'x' } }, /names no user/],
        [
          { userId: users[0].user.id, organisationId: other.id, type: 'OTHER', content: { message: 'x' } },
          /does not belong/,
        ],
        [{ organisationId: org.id, type: 'OTHER', content: { colour: 'red' } }, /Unknown field "content.colour"/],
        [
          { organisationId: org.id, type: 'OTHER', content: { message: 'x'.repeat(2001) } },
          /content.message must be at most 2000/,
        ],
        [{ organisationId: org.id, type: 'OTHER', content: { message: 7 } }, /content.message must be text/],
        [{ organisationId: org.id, type: 'OTHER', content: 'text' }, /content must be an object/],
        [
          { organisationId: org.id, type: 'IMPORT_FILE', content: { status: 'DONE' } },
          /IMPORT_FILE notifications need content.fileName/,
        ],
        [{ organisationId: org.id, type: 'REPORT', content: {} }, /REPORT notifications need content.status/],
        [
          { organisationId: org.id, type: 'UNMAPPED_DOC_COUNT', content: { fileName: 'x' } },
          /content.fileName is not a field of UNMAPPED_DOC_COUNT/,
        ],
        [
          { organisationId: org.id, type: 'REPORT', content: { status: 'DONE', downloadLink: 'javascript:alert(1)' } },
          /must be an http\(s\) URL/,
        ],
        [
          {
            organisationId: org.id,
            type: 'REPORT',
            content: { status: 'DONE', downloadLink: `/files/reports/${other.id}/x.csv` },
          },
          /no stored report/,
        ],
        [{ organisationId: org.id, type: 'OTHER', content: { message: 'x' }, extra: 1 }, /Unknown field "extra"/],
      ];
      for (const [body, message] of bad) {
        const res = await publish(body);
        expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([JSON.stringify(body).slice(0, 80), 400]);
        expect(res.body).toMatchObject({ success: false, statusCode: 400 });
        expect(res.body.message).toMatch(message);
      }
      expect((await list(users[0].session)).body).toEqual([]);
    });

    it('accepts every type of the specification', async () => {
      const { org, users } = await orgWithUsers(1);
      const samples: Array<[string, object]> = [
        ['REPORT', { status: 'DONE', portfolioName: 'Main', startDate: '2025-07-01', endDate: '2026-06-30' }],
        ['PORTFOLIO_PROCESSING', { status: 'COMPLETED', portfolioCode: 'PF1', portfolioName: 'Main' }],
        ['PROCESS_LOG', { portfolioCode: 'PF1' }],
        ['HOLDER_DOWNLOAD', { status: 'IN PROGRESS' }],
        ['HOLDER_DOWNLOAD_STATUS', { status: 'FAILED', message: 'Registry unavailable' }],
        ['RELEASE_NOTES', { summary: 'New release', detail: 'Details' }],
        ['CONTRACT_NOTES', { message: 'Contract notes processed' }],
        ['IMPORT_FILE', { fileName: 'a.csv' }],
        ['UNMAPPED_DOC_COUNT', { message: '3' }],
        ['PORTFOLIO_TRANSFER', { status: 'COMPLETED', portfolioName: 'Main' }],
        ['OTHER', { message: 'hello', subCategory: 'misc' }],
      ];
      for (const [type, content] of samples) await publish({ organisationId: org.id, type, content }).expect(201);
      expect((await list(users[0].session)).body.map((n: NotificationItem) => n.type)).toEqual(
        samples.map(([type]) => type).reverse(),
      );
    });
  });

  describe('signed download links (one hour)', () => {
    it('an uploaded report is linked by a signed link that works, and a tampered or expired link is refused', async () => {
      const a = await orgWithUsers(1);
      const c = await connected(a.users[0].session);
      const up = await request(t.http)
        .post('/api/notifications/reports')
        .set('X-Api-Key', KEY)
        .field('organisationId', String(a.org.id))
        .attach('file', Buffer.from('a,b\n1,2\n'), 'CGT report 2026.csv')
        .expect(201);
      expect(up.body).toEqual({
        success: true,
        fileName: 'CGT report 2026.csv',
        downloadLink: expect.stringMatching(new RegExp(`^/files/reports/${a.org.id}/`)),
      });

      await publish({
        userId: a.users[0].user.id,
        type: 'REPORT',
        content: { status: 'DONE', fileName: up.body.fileName, downloadLink: up.body.downloadLink },
      }).expect(201);
      await until(() => c.received.length === 1);
      const live = c.received[0].content.downloadLink!;
      const listed = (await list(a.users[0].session)).body[0].content.downloadLink as string;
      for (const link of [live, listed]) {
        const m = /\?expires=(\d+)&sig=[\w-]+$/.exec(link);
        expect(m).not.toBeNull();
        const seconds = Number(m![1]) - Date.now() / 1000;
        expect(seconds).toBeGreaterThan(3590);
        expect(seconds).toBeLessThanOrEqual(3600);
      }
      const file = await request(t.http).get(listed).buffer(true).expect(200);
      expect(file.body.toString()).toBe('a,b\n1,2\n');
      expect(file.headers['content-disposition']).toContain('filename="CGT report 2026.csv"');

      await request(t.http)
        .get(listed.replace(/sig=.*/, 'sig=AAAA'))
        .expect(403);
      await request(t.http)
        .get(listed.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 3600}`))
        .expect(403);
      await request(t.http).get(listed.replace(/\?.*/, '')).expect(403);
      const ref = new URL(listed, 'http://x').pathname;
      const name = decodeURIComponent(ref.split('/').pop()!);
      const expired = t.app.get(FileLinksService).sign('reports', a.org.id, name, Date.now() - 3601_000);
      const res = await request(t.http).get(expired).expect(403);
      expect(res.body).toMatchObject({ success: false, message: 'This download link has expired.' });
    });

    it('a report named by fileName alone gets a link; uploads need the key and an organisation', async () => {
      const a = await orgWithUsers(1);
      await t.app.get(FileLinksService).storeReport(a.org.id, 'summary.pdf', Buffer.from('%PDF-1.4'));
      await publish({
        organisationId: a.org.id,
        type: 'REPORT',
        content: { status: 'DONE', fileName: 'summary.pdf' },
      }).expect(201);
      const link = (await list(a.users[0].session)).body[0].content.downloadLink as string;
      expect(link).toMatch(new RegExp(`^/files/reports/${a.org.id}/summary\\.pdf\\?expires=`));
      await request(t.http).get(link).expect(200);

      await request(t.http)
        .post('/api/notifications/reports')
        .field('organisationId', String(a.org.id))
        .attach('file', Buffer.from('x'), 'x.csv')
        .expect(401);
      await request(t.http)
        .post('/api/notifications/reports')
        .set('X-Api-Key', KEY)
        .field('organisationId', '999999')
        .attach('file', Buffer.from('x'), 'x.csv')
        .expect(400);
      await request(t.http)
        .post('/api/notifications/reports')
        .set('X-Api-Key', KEY)
        .field('organisationId', String(a.org.id))
        .expect(400);
    });

    it('an external https link is passed on as it is', async () => {
      const a = await orgWithUsers(1);
      await publish({
        organisationId: a.org.id,
        type: 'REPORT',
        content: { status: 'DONE', downloadLink: 'https://reports.example.com/r/1?sig=abc' },
      }).expect(201);
      expect((await list(a.users[0].session)).body[0].content.downloadLink).toBe(
        'https://reports.example.com/r/1?sig=abc',
      );
    });
  });
});
