import { createHmac } from 'node:crypto';
import { generateSecret } from 'otplib';
import request from 'supertest';
import { TrustedDevice } from '../../../src/identity/trusted-devices/entities/trusted-device.entity';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, fromResponse, login, PASSWORD, totp } from '../../utils/factories';
import { expectErrorBody } from '../../utils/error-body';
import { createRoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const used = new Map<string, number>();
/** The current code, then the next step's (an app's code 30 s later): a code works once, and the server accepts one step either side. */
const nextTotp = (secret: string) => {
  const n = used.get(secret) ?? 0;
  if (n > 1) throw new Error('only two codes per secret in a test');
  used.set(secret, n + 1);
  return totp(secret, Date.now() / 1000 + 30 * n);
};

function deviceCookieOf(res: request.Response): { pair: string; attributes: string } | undefined {
  const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('mfa_device_'));
  return raw ? { pair: raw.split(';')[0], attributes: raw } : undefined;
}

/** "Don't ask again on this device" (trusted devices). */
describe('MFA trusted devices', () => {
  let t: TestApp;
  let org: Organisation;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t);
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  const password = (email: string, cookie?: string) => {
    const r = http().post('/auth/login').set('User-Agent', CHROME);
    if (cookie) r.set('Cookie', cookie);
    return r.send({ username: email, password: PASSWORD, acceptToS: true });
  };
  async function mfaStep(email: string, secret: string, rememberDevice?: boolean) {
    const first = await password(email).expect(401);
    expect(first.body.code).toBe('TOTP_REQUIRED');
    return http()
      .post('/auth/login')
      .set('User-Agent', CHROME)
      .set('Authorization', `Bearer ${first.body.challengeToken}`)
      .send({
        username: email,
        password: PASSWORD,
        acceptToS: true,
        mfaToken: await nextTotp(secret),
        ...(rememberDevice !== undefined ? { rememberDevice } : {}),
      })
      .expect(200);
  }
  async function trusted(options: Partial<User> = {}) {
    const secret = generateSecret();
    const user = await createUser(t, org, { totpSecret: secret, ...options });
    const res = await mfaStep(user.email, secret, true);
    const cookie = deviceCookieOf(res);
    expect(cookie).toBeDefined();
    return { user, secret, cookie: cookie!.pair, attributes: cookie!.attributes, session: fromResponse(res) };
  }
  const skips = async (email: string, cookie: string) => (await password(email, cookie)).status === 200;

  it('the MFA challenge offers the option for MFA_REMEMBER_DAYS (30); the cookie is HttpOnly, SameSite=Strict, for sign-in only, 30 days', async () => {
    const secret = generateSecret();
    const u = await createUser(t, org, { totpSecret: secret });
    const first = await password(u.email).expect(401);
    expect(first.body).toMatchObject({ code: 'TOTP_REQUIRED', rememberDeviceDays: 30 });
    const without = await mfaStep(u.email, secret);
    expect(deviceCookieOf(without)).toBeUndefined();
    const { attributes, cookie } = await trusted();
    expect(attributes).toMatch(/HttpOnly/i);
    expect(attributes).toMatch(/SameSite=Strict/i);
    expect(attributes).toMatch(/Path=\/auth\/login/);
    expect(attributes).toMatch(new RegExp(`Max-Age=${30 * 24 * 3600}`));
    expect(cookie.split('=')[1]).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('the next password sign-in from that browser skips the MFA step; another browser is still asked; the device is listed and marked used', async () => {
    const { user, cookie, session } = await trusted();
    const ok = await password(user.email, cookie).expect(200);
    expect(ok.body).toEqual({ success: true, accessToken: expect.any(String) });
    await http().get('/api/users/current').set(fromResponse(ok).auth).expect(200);
    expect((await password(user.email).expect(401)).body.code).toBe('TOTP_REQUIRED');
    // A wrong password with the cookie is still a wrong password.
    const wrong = await http()
      .post('/auth/login')
      .set('Cookie', cookie)
      .send({ username: user.email, password: 'Wrong-Password-9', acceptToS: true })
      .expect(401);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
    // The terms still apply.
    await http()
      .post('/auth/login')
      .set('Cookie', cookie)
      .send({ username: user.email, password: PASSWORD, acceptToS: false })
      .expect(400);

    const list = await http().get('/mfa/trusted-devices').set(fromResponse(ok).auth).expect(200);
    expect(list.body).toEqual([
      {
        id: expect.any(Number),
        label: 'Chrome on Windows',
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    const days = (Date.parse(list.body[0].expiresAt) - Date.parse(list.body[0].createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    expect(session.accessToken).toBeTruthy();
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'TRUSTED_DEVICE_ADDED', targetId: user.id })).toBe(1);
    // Only a hash of the token is stored.
    const row = await t.db.getRepository(TrustedDevice).findOneByOrFail({ userId: user.id });
    expect(cookie).not.toContain(row.tokenHash);
    expect(cookie.split('=')[1].split('.')[0]).not.toBe(row.tokenHash);
  });

  it('the forced password change is not skipped', async () => {
    const { user, cookie } = await trusted();
    await t.db.getRepository(User).update({ id: user.id }, { mustChangePassword: true });
    const r = await password(user.email, cookie).expect(401);
    expect(r.body.code).toBe('PASSWORD_CHANGE_REQUIRED');
  });

  it('a forged, tampered, foreign, expired or revoked cookie is ignored: the MFA step is asked for', async () => {
    const a = await trusted();
    const b = await trusted();
    const [name, value] = a.cookie.split('=');
    const [token, sig] = value.split('.');
    // Tampered signature, tampered token, missing signature, junk.
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const bad of [`${token}.${flip(sig)}`, `${flip(token)}.${sig}`, token, 'x'.repeat(300), '']) {
      expect(await skips(a.user.email, `${name}=${bad}`)).toBe(false);
    }
    // B's cookie, under B's name or A's name, does not open A's account.
    expect(await skips(a.user.email, b.cookie)).toBe(false);
    expect(await skips(a.user.email, `${name}=${b.cookie.split('=')[1]}`)).toBe(false);
    // A cookie signed with the right key for A over a token that is not stored (a forged device).
    const key = createHmac('sha256', t.config.encryptionKey).update('mfa-trusted-device').digest();
    const forgedToken = 'forged-token-forged-token-forged-token-000';
    const forged = `${forgedToken}.${createHmac('sha256', key).update(`${a.user.id}.${forgedToken}`).digest('base64url')}`;
    expect(await skips(a.user.email, `${name}=${forged}`)).toBe(false);
    // The genuine cookie still works...
    expect(await skips(a.user.email, a.cookie)).toBe(true);
    // ...until it expires.
    await t.db.getRepository(TrustedDevice).update({ userId: a.user.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await skips(a.user.email, a.cookie)).toBe(false);
    expect((await http().get('/mfa/trusted-devices').set(a.session.auth).expect(200)).body).toEqual([]);
  });

  it('"Revoke" ends one device, "Revoke all" every one; another user\'s device id is a 404 and changes nothing', async () => {
    const { user, secret, cookie } = await trusted();
    const second = deviceCookieOf(await mfaStep(user.email, secret, true))!.pair;
    const s = fromResponse(await password(user.email, cookie).expect(200));
    const list = (await http().get('/mfa/trusted-devices').set(s.auth).expect(200)).body as Array<{ id: number }>;
    expect(list).toHaveLength(2);
    const other = await trusted();
    const otherId = (await t.db.getRepository(TrustedDevice).findOneByOrFail({ userId: other.user.id })).id;
    expectErrorBody(await http().delete(`/mfa/trusted-devices/${otherId}`).set(s.auth).expect(404), 404);
    expect(await skips(other.user.email, other.cookie)).toBe(true);
    expectErrorBody(await http().delete('/mfa/trusted-devices/abc').set(s.auth).expect(400), 400);
    expectErrorBody(await http().delete('/mfa/trusted-devices/99999999999').set(s.auth).expect(400), 400);

    const firstId = (
      await t.db.getRepository(TrustedDevice).findOneByOrFail({ userId: user.id, label: 'Chrome on Windows' })
    ).id;
    const [older] = list.slice(-1);
    await http().delete(`/mfa/trusted-devices/${older.id}`).set(s.auth).expect(200, { success: true });
    expect(older.id).toBe(firstId);
    expect(await skips(user.email, cookie)).toBe(false);
    expect(await skips(user.email, second)).toBe(true);
    await http().delete(`/mfa/trusted-devices/${older.id}`).set(s.auth).expect(404);

    await http().delete('/mfa/trusted-devices').set(s.auth).expect(200, { success: true, revoked: 1 });
    expect(await skips(user.email, second)).toBe(false);
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'TRUSTED_DEVICE_REVOKED', targetId: user.id })).toBe(2);
  });

  it('a password change, an MFA change (regenerate, disable), disabling the user or "Disable User MFA" revokes them all', async () => {
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const adminAuth = (await login(t, admin.email)).auth;

    const p = await trusted();
    await http()
      .patch('/api/users/updatePassword')
      .set(p.session.auth)
      .send({ currentPassword: PASSWORD, userPassword: 'Another-Horse-8' })
      .expect(200);
    expect(await t.db.getRepository(TrustedDevice).countBy({ userId: p.user.id })).toBe(0);

    const r = await trusted();
    await http()
      .post('/mfa/recovery-codes')
      .set(r.session.auth)
      .send({ token: await nextTotp(r.secret) })
      .expect(200);
    expect(await skips(r.user.email, r.cookie)).toBe(false);

    const d = await trusted();
    await http()
      .post('/mfa/disable')
      .set(d.session.auth)
      .send({ token: await nextTotp(d.secret) })
      .expect(200);
    expect(await t.db.getRepository(TrustedDevice).countBy({ userId: d.user.id })).toBe(0);

    const x = await trusted();
    await http().put('/api/users/disableUser').set(adminAuth).send({ userId: x.user.id, isDisabled: true }).expect(200);
    await http()
      .put('/api/users/disableUser')
      .set(adminAuth)
      .send({ userId: x.user.id, isDisabled: false })
      .expect(200);
    expect(await skips(x.user.email, x.cookie)).toBe(false);

    const m = await trusted();
    await http().put('/api/mfa/disableUserMfa').set(adminAuth).send({ userId: m.user.id }).expect(200);
    expect(await t.db.getRepository(TrustedDevice).countBy({ userId: m.user.id })).toBe(0);

    // A force log-off is not among them.
    const f = await trusted();
    await http()
      .post('/api/userLoginActivities/force-logoff')
      .set(adminAuth)
      .send({ userIds: [f.user.id] })
      .expect(200);
    await http().get('/api/users/current').set(f.session.auth).expect(401);
    expect(await skips(f.user.email, f.cookie)).toBe(true);
  });

  it("every role lists and revokes only its own devices; another organisation's device is a 404; without a session, 401", async () => {
    const m = await createRoleMatrix(t);
    const victim = await trusted();
    const victimId = (await t.db.getRepository(TrustedDevice).findOneByOrFail({ userId: victim.user.id })).id;
    for (const actor of [...Object.values(m.byRole), m.otherOrgAdmin]) {
      await http().get('/mfa/trusted-devices').set(actor.session.auth).expect(200, []);
      expectErrorBody(await http().delete(`/mfa/trusted-devices/${victimId}`).set(actor.session.auth).expect(404), 404);
      await http().delete('/mfa/trusted-devices').set(actor.session.auth).expect(200, { success: true, revoked: 0 });
    }
    expect(await skips(victim.user.email, victim.cookie)).toBe(true);
    expectErrorBody(await http().get('/mfa/trusted-devices').expect(401), 401);
    expectErrorBody(await http().delete(`/mfa/trusted-devices/${victimId}`).expect(401), 401);
    expectErrorBody(await http().delete('/mfa/trusted-devices').expect(401), 401);
  });
});

describe('MFA trusted devices with MFA_REMEMBER_DAYS=0', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ MFA_REMEMBER_DAYS: '0' });
  });
  afterAll(() => t.close());

  it('the option is hidden (0 days), a ticked box sets no cookie, and an otherwise valid device cookie is ignored', async () => {
    const org = await createOrganisation(t);
    const secret = generateSecret();
    const u = await createUser(t, org, { totpSecret: secret });
    const first = await request(t.http)
      .post('/auth/login')
      .send({ username: u.email, password: PASSWORD, acceptToS: true })
      .expect(401);
    expect(first.body.rememberDeviceDays).toBe(0);
    const ok = await request(t.http)
      .post('/auth/login')
      .set('Authorization', `Bearer ${first.body.challengeToken}`)
      .send({
        username: u.email,
        password: PASSWORD,
        acceptToS: true,
        mfaToken: await totp(secret),
        rememberDevice: true,
      })
      .expect(200);
    expect(deviceCookieOf(ok)).toBeUndefined();
    expect(await t.db.getRepository(TrustedDevice).countBy({ userId: u.id })).toBe(0);

    // A device row and a correctly signed cookie, made with the server's own key.
    const key = createHmac('sha256', t.config.encryptionKey).update('mfa-trusted-device').digest();
    const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
    const token = 'a-device-token-made-by-the-test-0000000000';
    const { createHash } = await import('node:crypto');
    await t.db.getRepository(TrustedDevice).insert({
      userId: u.id,
      tokenHash: createHash('sha256').update(token).digest('hex'),
      label: 'Chrome on Windows',
      lastUsedAt: null,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const cookie = `mfa_device_${mac(`name:${u.id}`).slice(0, 16)}=${token}.${mac(`${u.id}.${token}`)}`;
    const again = await request(t.http)
      .post('/auth/login')
      .set('Cookie', cookie)
      .send({ username: u.email, password: PASSWORD, acceptToS: true })
      .expect(401);
    expect(again.body.code).toBe('TOTP_REQUIRED');
  });
});
