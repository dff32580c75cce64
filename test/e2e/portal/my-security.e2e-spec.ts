import { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { MySession, MySignIn } from '../../../src/shared/administration/insights';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, fromResponse, LoggedIn, PASSWORD } from '../../utils/factories';
import { expectedStatuses } from '../../utils/org-admin';
import { linkIn, readOutbox, ReceivedMail } from '../../utils/outbox';
import { createRoleMatrix, statusesByRole } from '../../utils/roles';
import { SoftAuthenticator } from '../../utils/identity-providers/soft-authenticator';
import { createTestApp, TestApp } from '../../utils/test-app';
import { Passkey } from '../../../src/identity/passkeys/passkey.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { ALL_ROLES, ROLE_CODES } from '../../../src/shared/roles';

const NEW_BROWSER = 'sign-in from a new browser';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe("Each member's own security page and new-browser e-mails (docs/product-rules.md §10)", () => {
  let t: TestApp;
  let org: Organisation;
  let baseUrl: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t);
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(() => t.close());

  /** The notification socket of a session, connected; `closed` settles with the reason it was closed for. */
  async function socketOf(session: LoggedIn) {
    const socket = io(baseUrl, {
      path: '/socket.io',
      query: { token: session.accessToken },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return { socket, closed };
  }

  /** Signs in from a browser: its browser cookie (none: a browser never seen) goes with the call; answers the cookie it holds after. */
  async function signIn(email: string, browser?: string): Promise<LoggedIn & { browser: string }> {
    const req = request(t.http)
      .post('/auth/login')
      .set('User-Agent', CHROME)
      .send({ username: email, password: PASSWORD, acceptToS: true });
    if (browser) req.set('Cookie', `browser_id=${browser}`);
    const res = await req;
    if (res.status !== 200) throw new Error(`login ${res.status} ${JSON.stringify(res.body)}`);
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('browser_id='));
    return { ...fromResponse(res), browser: set ? set.split(';')[0].slice('browser_id='.length) : browser! };
  }
  const current = (s: LoggedIn) => request(t.http).get('/api/users/current').set(s.auth);
  /** Registers a passkey for a signed-in session through the two calls the profile makes. */
  async function registerPasskey(s: LoggedIn, key: SoftAuthenticator, name: string): Promise<void> {
    const options = await request(t.http).post('/mfa/passkeys/registration-options').set(s.auth).expect(200);
    const { response } = key.register(options.body);
    await request(t.http).post('/mfa/passkeys').set(s.auth).send({ name, response }).expect(200);
  }
  const mySessions = (s: LoggedIn) => request(t.http).get('/api/me/sessions').set(s.auth);
  const mailsTo = async (email: string, subject: string): Promise<ReceivedMail[]> =>
    (await readOutbox(t.dataDir)).filter((m) => m.to.includes(email) && m.subject.includes(subject));

  describe('my sessions', () => {
    it('lists only my open sessions, newest first, this one marked, with address, browser and method', async () => {
      const me = await createUser(t, org);
      const other = await createUser(t, org);
      const first = await signIn(me.email);
      const second = await signIn(me.email, first.browser);
      await signIn(other.email);
      const res = await mySessions(second).expect(200);
      const rows = res.body as MySession[];
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => r.current)).toEqual([true, false]);
      expect(rows[0]).toMatchObject({ userAgent: CHROME, method: 'password' });
      expect(rows[0].ip).toBeTruthy();
      expect(Date.parse(rows[1].createdAt)).toBeLessThanOrEqual(Date.parse(rows[0].createdAt));
    });

    it('ends one of mine at once; another account’s session id, an ended one or a malformed one is a 404', async () => {
      const me = await createUser(t, org);
      const other = await createUser(t, org);
      const a = await signIn(me.email);
      const b = await signIn(me.email, a.browser);
      const theirs = await signIn(other.email);
      const theirId = (await mySessions(theirs).expect(200)).body[0].id;
      const bId = (await mySessions(b).expect(200)).body.find((r: MySession) => r.current).id;

      const refused = await request(t.http).delete(`/api/me/sessions/${theirId}`).set(a.auth);
      expect(refused.status).toBe(404);
      expectErrorBody(refused, 404);
      await current(theirs).expect(200);

      await request(t.http).delete(`/api/me/sessions/${bId}`).set(a.auth).expect(200, { success: true, ended: 1 });
      await current(b).expect(401);
      await current(a).expect(200);
      await request(t.http).delete(`/api/me/sessions/${bId}`).set(a.auth).expect(404);
      await request(t.http).delete('/api/me/sessions/not-a-session').set(a.auth).expect(404);
    });

    it('signs out everywhere else, at once, also when asked in parallel; this session stays', async () => {
      const me = await createUser(t, org);
      const here = await signIn(me.email);
      const others = await Promise.all([1, 2, 3].map(() => signIn(me.email, here.browser)));
      const bystander = await signIn((await createUser(t, org)).email);
      const answers = await Promise.all(
        [1, 2, 3].map(() => request(t.http).delete('/api/me/sessions').query({ others: 'true' }).set(here.auth)),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(answers.reduce((n, r) => n + r.body.ended, 0)).toBe(3);
      for (const s of others) await current(s).expect(401);
      await current(here).expect(200);
      await current(bystander).expect(200);
      expect((await mySessions(here).expect(200)).body).toHaveLength(1);
    });

    it("closes the ended sessions' sockets at once, and only theirs", async () => {
      const me = await createUser(t, org);
      const here = await signIn(me.email);
      const one = await signIn(me.email, here.browser);
      const two = await signIn(me.email, here.browser);
      const [mine, first, second] = await Promise.all([socketOf(here), socketOf(one), socketOf(two)]);
      const oneId = (await mySessions(one).expect(200)).body.find((r: MySession) => r.current).id;
      await request(t.http).delete(`/api/me/sessions/${oneId}`).set(here.auth).expect(200);
      expect(await first.closed).toBe('io server disconnect');
      expect(second.socket.connected).toBe(true);
      await request(t.http).delete('/api/me/sessions').query({ others: 'true' }).set(here.auth).expect(200);
      expect(await second.closed).toBe('io server disconnect');
      expect(mine.socket.connected).toBe(true);
    });

    it('refuses to end every session without others=true (400)', async () => {
      const me = await signIn((await createUser(t, org)).email);
      for (const query of [{}, { others: 'false' }, { others: 'yes' }]) {
        const res = await request(t.http).delete('/api/me/sessions').query(query).set(me.auth);
        expect(res.status).toBe(400);
        expectErrorBody(res, 400);
      }
      await current(me).expect(200);
    });

    it('is every signed-in member’s, and nobody’s signed out', async () => {
      const m = await createRoleMatrix(t);
      expect(
        await statusesByRole(m, (actor) => request(t.http).get('/api/me/sessions').set(actor.session.auth)),
      ).toEqual(
        expectedStatuses(
          ALL_ROLES.map((r) => ROLE_CODES[r]),
          200,
        ),
      );
      await request(t.http).get('/api/me/sessions').expect(401);
      await request(t.http).get('/api/me/sign-ins').expect(401);
      await request(t.http).delete('/api/me/sessions').query({ others: 'true' }).expect(401);
    });
  });

  describe('my sign-ins', () => {
    it('lists my last sign-ins and failures, newest first, with method, address, browser and new-browser mark', async () => {
      const me = await createUser(t, org, { roleId: Role.VIEWER });
      const first = await signIn(me.email);
      await request(t.http)
        .post('/auth/login')
        .send({ username: me.email, password: 'Wrong-Horse-1', acceptToS: true })
        .expect(401);
      const again = await signIn(me.email);
      const rows = (await request(t.http).get('/api/me/sign-ins').set(again.auth).expect(200)).body as MySignIn[];
      expect(rows.map((r) => [r.outcome, r.method, r.newDevice])).toEqual([
        ['succeeded', 'password', true],
        ['failed', 'password', false],
        ['succeeded', 'password', false],
      ]);
      expect(rows[0].userAgent).toBe(CHROME);
      // Someone else's page does not show them.
      const other = await signIn((await createUser(t, org)).email);
      expect((await request(t.http).get('/api/me/sign-ins').set(other.auth).expect(200)).body).toHaveLength(1);
      expect(first.browser).not.toBe(again.browser);
    });

    it('keeps the last 50', async () => {
      const me = await createUser(t, org);
      const s = await signIn(me.email);
      for (let i = 0; i < 51; i++)
        await request(t.http)
          .post('/auth/login')
          .send({ username: me.email, password: `Wrong-${i}`, acceptToS: true });
      const rows = (await request(t.http).get('/api/me/sign-ins').set(s.auth).expect(200)).body as MySignIn[];
      expect(rows).toHaveLength(50);
    });
  });

  describe('new-browser e-mails', () => {
    it('sends none at the first sign-in, none from a browser used before, one from a new browser', async () => {
      const me = await createUser(t, org);
      const first = await signIn(me.email);
      expect(first.browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await signIn(me.email, first.browser);
      expect(await mailsTo(me.email, NEW_BROWSER)).toHaveLength(0);
      await signIn(me.email);
      const mails = await mailsTo(me.email, NEW_BROWSER);
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toContain('Chrome on Windows');
      // When: as every page and e-mail writes a moment, in the deployment's zone (Australia/Sydney), named.
      expect(mails[0].text).toMatch(/^When: \w{3}, \d{1,2} \w{3} \d{4}, \d{1,2}:\d\d:\d\d (AM|PM) AE[DS]T$/m);
      expect(mails[0].text).toMatch(/^From the address: 127\.0\.0\.1$/m);
      expect(linkIn(mails[0])).toMatch(/^http:\/\/portal\.test\/notMe\?token=/);
    });

    it('sends one e-mail for a burst of sign-ins from new browsers, in parallel', async () => {
      const me = await createUser(t, org);
      await signIn(me.email);
      await Promise.all([1, 2, 3, 4, 5].map(() => signIn(me.email)));
      await signIn(me.email);
      expect(await mailsTo(me.email, NEW_BROWSER)).toHaveLength(1);
    });

    it("'This wasn't me' ends every session of the account and e-mails a password reset; the link works once", async () => {
      const me = await createUser(t, org);
      const trusted = await signIn(me.email);
      const intruder = await signIn(me.email);
      const link = linkIn((await mailsTo(me.email, NEW_BROWSER))[0])!;
      const token = new URL(link).searchParams.get('token');
      const res = await request(t.http).post('/auth/not-me').send({ token }).expect(200);
      expect(res.body.success).toBe(true);
      await current(trusted).expect(401);
      await current(intruder).expect(401);
      expect(await mailsTo(me.email, 'reset your password')).toHaveLength(1);
      const again = await request(t.http).post('/auth/not-me').send({ token });
      expect(again.status).toBe(400);
      expectErrorBody(again, 400);
      for (const body of [{}, { token: 'x'.repeat(101) }, { token: 'unknown' }, { token, extra: 1 }])
        expect((await request(t.http).post('/auth/not-me').send(body)).status).toBe(400);
    });

    it("after 'This wasn't me' the password opens nothing, from any browser, until the owner resets it", async () => {
      const me = await createUser(t, org);
      const trusted = await signIn(me.email);
      const intruder = await signIn(me.email);
      // The intruder leaves a passkey behind, which alone would sign in.
      const theirKey = new SoftAuthenticator('http://portal.test');
      await registerPasskey(intruder, theirKey, 'Not mine');
      // A passkey of the owner's from before the reported sign-in (its row as registration leaves one).
      const passkeys = t.db.getRepository(Passkey);
      const theirs = await passkeys.findOneByOrFail({ userId: me.id });
      await passkeys.insert({
        ...theirs,
        id: undefined,
        credentialId: `${theirs.credentialId}-own`,
        name: 'Mine',
        createdAt: new Date(Date.now() - 3_600_000),
      });
      const token = new URL(linkIn((await mailsTo(me.email, NEW_BROWSER))[0])!).searchParams.get('token');
      await request(t.http).post('/auth/not-me').send({ token }).expect(200);
      const passwordless = async (key: SoftAuthenticator) => {
        const options = (await request(t.http).post('/auth/passkey/options').expect(200)).body;
        return request(t.http)
          .post('/auth/login')
          .send({ acceptToS: true, passkey: key.assert(options) });
      };
      expect((await passwordless(theirKey)).status).toBe(401);
      expect((await passkeys.findBy({ userId: me.id })).map((p) => p.name)).toEqual(['Mine']);
      // Set aside here, so that the password alone signs in below (a passkey would ask for it as a second factor).
      await passkeys.delete({ userId: me.id });
      await t.db.getRepository(User).update({ id: me.id }, { hasPasskey: false });
      const attempt = (password: string, browser: string) =>
        request(t.http)
          .post('/auth/login')
          .set('User-Agent', CHROME)
          .set('Cookie', `browser_id=${browser}`)
          .send({ username: me.email, password, acceptToS: true });
      // The intruder's browser is known now, and the password right: refused exactly as a wrong password is.
      const right = await attempt(PASSWORD, intruder.browser);
      const wrong = await attempt('Wrong-Password-1', intruder.browser);
      expect(right.status).toBe(401);
      expect({ code: right.body.code, message: right.body.message }).toEqual({
        code: wrong.body.code,
        message: wrong.body.message,
      });
      expect(right.body.code).toBe('INVALID_CREDENTIALS');
      expect((await attempt(PASSWORD, trusted.browser)).status).toBe(401);
      // The owner's reset link works, and the new password signs in; the old one stays refused.
      const reset = new URL(linkIn((await mailsTo(me.email, 'reset your password'))[0])!).searchParams.get('token');
      await request(t.http)
        .post('/auth/reset-password')
        .send({ token: reset, password: 'Fresh-Password-2' })
        .expect(200, { success: true });
      expect((await attempt('Fresh-Password-2', trusted.browser)).status).toBe(200);
      expect((await attempt(PASSWORD, trusted.browser)).status).toBe(401);
    });
  });
});

// A second app in this process takes over passport's process-wide strategies (the sign-in's among them), so it runs
// after every test of the first app.
describe('New-browser e-mails behind a dual-stack proxy', () => {
  it("gives an IPv4 client's address without the IPv6 mapping a dual-stack proxy reports", async () => {
    const behindProxy = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      const proxyOrg = await createOrganisation(behindProxy);
      const me = await createUser(behindProxy, proxyOrg);
      const login = (forwardedFor: string) =>
        request(behindProxy.http)
          .post('/auth/login')
          .set('User-Agent', CHROME)
          .set('X-Forwarded-For', forwardedFor)
          .send({ username: me.email, password: PASSWORD, acceptToS: true })
          .expect(200);
      await login('2001:db8::5');
      await login('::ffff:203.0.113.7');
      const mails = (await readOutbox(behindProxy.dataDir)).filter(
        (m) => m.to.includes(me.email) && m.subject.includes(NEW_BROWSER),
      );
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toMatch(/^From the address: 203\.0\.113\.7$/m);
    } finally {
      await behindProxy.close();
    }
  });
});
