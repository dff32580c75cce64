import { createHmac, randomBytes } from 'node:crypto';
import request from 'supertest';
import { JwtStrategy } from '../../../src/identity/credentials/jwt.strategy';
import { PassportVerifiedTokens } from '../../../src/identity/credentials/passport-verified-tokens';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * A token passport-jwt has verified once is not sent through passport's chain and the signature check again: the
 * guard finds it among the verified tokens and goes straight to the session check. Everything that check decides
 * still counts on the very next call of such a token (an ended session, a disabled account, a changed role, its
 * expiry), and a token that differs from a verified one in any way is verified by passport-jwt, which refuses it.
 */
describe('Access tokens passport-jwt has verified', () => {
  let t: TestApp;
  let strategy: JwtStrategy;
  let verified: PassportVerifiedTokens;
  beforeAll(async () => {
    t = await createTestApp();
    strategy = t.app.get(JwtStrategy);
    verified = t.app.get(PassportVerifiedTokens);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const current = (token: string) =>
    request(t.http)
      .get('/api/users/current')
      .set({ Authorization: `Bearer ${token}` });
  const auditPage = (s: LoggedIn) => request(t.http).get('/api/audit-events').set(s.auth);

  /** How often passport-jwt verified a token and handed it to the strategy, and what the guard found known. */
  function watch() {
    const validate = jest.spyOn(strategy, 'validate');
    const known = jest.spyOn(verified, 'verified');
    return {
      passportCalls: () => validate.mock.calls.length,
      hits: () => known.mock.results.filter((r) => r.value === true).length,
    };
  }

  async function signedIn(fields: Partial<User> = {}): Promise<{ user: User; s: LoggedIn }> {
    const org = fields.organisationId ? { id: fields.organisationId } : await createOrganisation(t);
    const user = await createUser(t, org as Parameters<typeof createUser>[1], fields);
    return { user, s: await login(t, user.email) };
  }

  it('verifies a token through passport-jwt once, then answers its calls from the session check alone', async () => {
    const { s } = await signedIn({ firstName: 'Once' });
    const w = watch();
    await current(s.accessToken).expect(200);
    expect(w.passportCalls()).toBe(1);
    expect(w.hits()).toBe(0);
    for (let i = 0; i < 3; i++) {
      const res = await current(s.accessToken).expect(200);
      expect(res.body.firstName).toBe('Once');
    }
    expect(w.passportCalls()).toBe(1);
    expect(w.hits()).toBe(3);
  });

  it('refuses a known token of an ended session (logout, force log-off, the row ended) on the very next call', async () => {
    const admin = await signedIn({ roleId: Role.SITE_ADMIN });
    await current(admin.s.accessToken).expect(200);
    const ends: ((user: User, s: LoggedIn) => Promise<unknown>)[] = [
      (_user, s) => request(t.http).post('/auth/logout').set(s.auth).expect(200),
      (user) => t.db.getRepository(Session).update({ userId: user.id }, { endedAt: new Date() }),
      (user) =>
        request(t.http)
          .post('/api/userLoginActivities/force-logoff')
          .set(admin.s.auth)
          .send({ userIds: [user.id] })
          .expect(200),
    ];
    for (const end of ends) {
      const { user, s } = await signedIn({ organisationId: admin.user.organisationId });
      await current(s.accessToken).expect(200);
      const w = watch();
      await current(s.accessToken).expect(200);
      await end(user, s);
      const refused = await current(s.accessToken).expect(401);
      expect(refused.body.code).toBe('SESSION_ENDED');
      expect(w.hits()).toBeGreaterThanOrEqual(2);
      expect(w.passportCalls()).toBe(0);
      jest.restoreAllMocks();
    }
  });

  it('refuses a known token of an account disabled or blocked on the very next call', async () => {
    for (const change of [{ isDisabled: true }, { isBlocked: true }]) {
      const { user, s } = await signedIn();
      await current(s.accessToken).expect(200);
      const w = watch();
      await t.db.getRepository(User).update({ id: user.id }, change);
      await current(s.accessToken).expect(401);
      expect(w.hits()).toBe(1);
      expect(w.passportCalls()).toBe(0);
      jest.restoreAllMocks();
    }
  });

  it('applies a role given or taken away on the very next call of a known token', async () => {
    const { user, s } = await signedIn({ roleId: Role.ANALYST });
    await auditPage(s).expect(403);
    const w = watch();
    await t.db.getRepository(User).update({ id: user.id }, { roleId: Role.SITE_ADMIN });
    await auditPage(s).expect(200);
    await t.db.getRepository(User).update({ id: user.id }, { roleId: Role.ANALYST });
    await auditPage(s).expect(403);
    expect(w.hits()).toBe(2);
    expect(w.passportCalls()).toBe(0);
  });

  it('never takes a token that differs from a verified one: passport-jwt refuses it', async () => {
    const { s } = await signedIn();
    const other = await signedIn();
    await current(s.accessToken).expect(200);
    await current(other.s.accessToken).expect(200);
    const [header, payload, signature] = s.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const otherClaims = JSON.parse(Buffer.from(other.s.accessToken.split('.')[1], 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const middle = Math.floor(signature.length / 2);
    const flipped = signature[middle] === 'A' ? 'B' : 'A';
    const tampered = [
      // One character of the signature changed.
      `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`,
      // Another session's and account's claims under this token's signature.
      `${header}.${encode({ ...claims, sub: otherClaims.sub, sid: otherClaims.sid })}.${signature}`,
      // A later expiry under this token's signature.
      `${header}.${encode({ ...claims, exp: (claims.exp as number) + 3600 })}.${signature}`,
      // The same claims signed with another key.
      `${header}.${payload}.${createHmac('sha256', randomBytes(32)).update(`${header}.${payload}`).digest('base64url')}`,
      // No signature at all.
      `${encode({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      // The token with something after it.
      `${s.accessToken}x`,
    ];
    const w = watch();
    for (const token of tampered) {
      const res = await current(token);
      expect(res.status).toBe(401);
      expect(verified.verified(token)).toBe(false);
    }
    expect(w.hits()).toBe(0);
    expect(w.passportCalls()).toBe(0);
    // The genuine tokens are still known and answered.
    await current(s.accessToken).expect(200);
    await current(other.s.accessToken).expect(200);
    expect(w.hits()).toBe(2);
  });

  it('answers a known token past its expiry as passport-jwt and the session check do: 403 jwt expired', async () => {
    const { s } = await signedIn();
    await current(s.accessToken).expect(200);
    const { exp } = JSON.parse(Buffer.from(s.accessToken.split('.')[1], 'base64url').toString()) as { exp: number };
    const now = Date.now;
    const w = watch();
    jest.spyOn(Date, 'now').mockImplementation(() => exp * 1000 + (now() % 1000));
    const res = await current(s.accessToken);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('jwt expired');
    expect(w.hits()).toBe(0);
    expect(verified.verified(s.accessToken)).toBe(false);
  });

  it('reads an optional caller (GET /auth/status) from a known token too, and none from an ended session', async () => {
    const { user, s } = await signedIn();
    await current(s.accessToken).expect(200);
    const w = watch();
    const status = await request(t.http).get('/auth/status').set(s.auth).expect(200);
    expect(status.body).toMatchObject({ authenticated: true, user: { id: user.id } });
    expect(w.hits()).toBe(1);
    expect(w.passportCalls()).toBe(0);
    await t.db.getRepository(Session).update({ userId: user.id }, { endedAt: new Date() });
    const after = await request(t.http).get('/auth/status').set(s.auth).expect(200);
    expect(after.body).toEqual({ authenticated: false });
    expect(w.hits()).toBe(2);
  });
});
