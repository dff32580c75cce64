import request from 'supertest';
import { SOCKET_ERRORS } from '../../../src/shared/portal/notifications';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, PASSWORD } from '../../utils/factories';
import { callFrom, socketFrom } from '../../utils/from-address';
import { createTestApp, TestApp } from '../../utils/test-app';

const policyPath = (id: number) => `/api/organisations/${id}/security-policy`;
const METRICS_TOKEN = 'a-scraper-token-0123456789';

/**
 * A client choosing its own address behind the proxy (docs/security.md, "The client address"). The test calls as the
 * proxy would from 127.0.0.1: the proxy appends the address it saw to what the client sent in X-Forwarded-For, so
 * every entry before the last is the client's own writing. With the proxy trusted (TRUST_PROXY=true, one proxy) the
 * last entry is the client, for calls, sign-in, its throttle, the metrics and sockets alike; without trust the header
 * is ignored. Runs on SQLite and PostgreSQL.
 */
describe('hostile proxy headers: the client address is the one the proxy saw', () => {
  describe('behind one trusted proxy (TRUST_PROXY=true)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ TRUST_PROXY: 'true', METRICS_TOKEN });
      await t.app.listen(0, '127.0.0.1');
    });
    afterAll(() => t.close());

    const signIn = (email: string, forwardedFor: string, password = PASSWORD) =>
      request(t.http)
        .post('/auth/login')
        .set('X-Forwarded-For', forwardedFor)
        .send({ username: email, password, acceptToS: true });

    it('an organisation allowing only 127.0.0.1 refuses a client that writes 127.0.0.1 before its real address', async () => {
      const org = await createOrganisation(t);
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const member = await createUser(t, org, { roleId: Role.ANALYST });
      const adminS = await signIn(admin.email, '127.0.0.1').expect(200);
      const memberS = await signIn(member.email, '127.0.0.1').expect(200);
      await request(t.http)
        .put(policyPath(org.id))
        .set('Authorization', `Bearer ${adminS.body.accessToken}`)
        .set('X-Forwarded-For', '127.0.0.1')
        .send({ allowedIpRanges: ['127.0.0.1/32'] })
        .expect(200);
      const forged = '127.0.0.1, 198.51.100.7';

      const refusedSignIn = await signIn(member.email, forged);
      expect([refusedSignIn.status, refusedSignIn.body.code]).toEqual([403, 'IP_NOT_ALLOWED']);
      const auth = { Authorization: `Bearer ${memberS.body.accessToken}` };
      const refusedCall = await request(t.http).get('/api/users/current').set(auth).set('X-Forwarded-For', forged);
      expect([refusedCall.status, refusedCall.body.code]).toEqual([403, 'IP_NOT_ALLOWED']);
      // Several headers are one list: the last entry of the last one is what the proxy appended.
      const split = await callFrom(t, '127.0.0.1', 'GET', '/api/users/current', {
        headers: { ...auth, 'X-Forwarded-For': '198.51.100.7, 127.0.0.1, 198.51.100.7' },
      });
      expect([split.status, split.body.code]).toEqual([403, 'IP_NOT_ALLOWED']);
      // A malformed entry where the address is read leaves it unknown: inside no range.
      const malformed = await request(t.http).get('/api/users/current').set(auth).set('X-Forwarded-For', 'localhost');
      expect([malformed.status, malformed.body.code]).toEqual([403, 'IP_NOT_ALLOWED']);

      const socket = socketFrom(t, memberS.body.accessToken, '127.0.0.1', { 'X-Forwarded-For': forged });
      expect(await socket.outcome).toBe(SOCKET_ERRORS.IP_NOT_ALLOWED);
      socket.socket.disconnect();

      // The client really at 127.0.0.1 (whatever it wrote before) is let in, over HTTP and sockets.
      const inside = '198.51.100.7, 127.0.0.1';
      await request(t.http).get('/api/users/current').set(auth).set('X-Forwarded-For', inside).expect(200);
      await signIn(member.email, inside).expect(200);
      const allowed = socketFrom(t, memberS.body.accessToken, '127.0.0.1', { 'X-Forwarded-For': inside });
      expect(await allowed.outcome).toBe('connected');
      allowed.socket.disconnect();
    });

    it('the per-address sign-in lock holds however the client rotates what it writes into the header', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const from = (i: number) => `10.${i}.0.1, 192.0.2.${i}, 203.0.113.7`;
      const failures = await Promise.all(
        Array.from({ length: 6 }, (_, i) => signIn(user.email, from(i), `wrong-${i}`)),
      );
      // Six in parallel: the sixth is counted or already refused, never let through.
      for (const f of failures) expect([401, 429]).toContain(f.status);
      const locked = await signIn(user.email, from(99));
      expect([locked.status, locked.body.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
      // The owner, elsewhere, is not locked out.
      await signIn(user.email, '203.0.113.7, 198.51.100.20').expect(200);
    });

    it('the metrics are not opened by a client that writes a loopback address into the header', async () => {
      const res = await request(t.http).get('/api/metrics').set('X-Forwarded-For', '127.0.0.1, 203.0.113.9');
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
      // The proxy's own call (no header) is from this machine.
      await request(t.http).get('/api/metrics').expect(200);
    });
  });

  describe('without a trusted proxy (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
      await t.app.listen(0, '127.0.0.1');
    });
    afterAll(() => t.close());

    it('the header is ignored: the connection’s address decides, for calls, sign-in and sockets', async () => {
      const org = await createOrganisation(t);
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const member = await createUser(t, org, { roleId: Role.ANALYST });
      const body = (email: string) => ({ username: email, password: PASSWORD, acceptToS: true });
      const adminS = await callFrom(t, '127.0.0.1', 'POST', '/auth/login', { body: body(admin.email) });
      const memberS = await callFrom(t, '127.0.0.1', 'POST', '/auth/login', { body: body(member.email) });
      expect([adminS.status, memberS.status]).toEqual([200, 200]);
      const put = await callFrom(t, '127.0.0.1', 'PUT', policyPath(org.id), {
        headers: { Authorization: `Bearer ${String(adminS.body.accessToken)}` },
        body: { allowedIpRanges: ['127.0.0.1/32'] },
      });
      expect(put.status).toBe(200);
      const claimed = { 'X-Forwarded-For': '127.0.0.1' };
      const signIn = await callFrom(t, '127.0.0.5', 'POST', '/auth/login', {
        headers: claimed,
        body: body(member.email),
      });
      expect([signIn.status, signIn.body.code]).toEqual([403, 'IP_NOT_ALLOWED']);
      const token = String(memberS.body.accessToken);
      const call = await callFrom(t, '127.0.0.5', 'GET', '/api/users/current', {
        headers: { ...claimed, Authorization: `Bearer ${token}` },
      });
      expect([call.status, call.body.code]).toEqual([403, 'IP_NOT_ALLOWED']);
      const socket = socketFrom(t, token, '127.0.0.5', claimed);
      expect(await socket.outcome).toBe(SOCKET_ERRORS.IP_NOT_ALLOWED);
      socket.socket.disconnect();
      // From 127.0.0.1 itself, a header naming another address changes nothing either.
      const inside = await callFrom(t, '127.0.0.1', 'GET', '/api/users/current', {
        headers: { 'X-Forwarded-For': '198.51.100.7', Authorization: `Bearer ${token}` },
      });
      expect(inside.status).toBe(200);
    });
  });
});
