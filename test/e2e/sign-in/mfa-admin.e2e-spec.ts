import { generateSecret } from 'otplib';
import * as QRCode from 'qrcode';
import request from 'supertest';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, fromResponse, login, PASSWORD, totp } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';

/** Spec 000 §2 profile MFA panel, §3 MFA enable response, §4 profile and MFA, §9 QR; MFA rules. */
describe('MFA: enrolment with QR code, own and admin disable, enforced-but-not-enabled accounts', () => {
  let t: TestApp;
  let org: Organisation;
  let siteAdmin: { auth: { Authorization: string }; user: User };
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t);
    const user = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    siteAdmin = { user, auth: (await login(t, user.email)).auth };
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  const stored = (id: number) => t.db.getRepository(User).findOneByOrFail({ id });
  const loginWithTotp = async (email: string, code: string) => {
    const first = await http()
      .post('/auth/login')
      .send({ username: email, password: PASSWORD, acceptToS: true })
      .expect(401);
    expect(first.body.code).toBe('TOTP_REQUIRED');
    return http()
      .post('/auth/login')
      .set('Authorization', `Bearer ${first.body.challengeToken}`)
      .send({ username: email, password: PASSWORD, acceptToS: true, mfaToken: code });
  };

  it('enrolment: the secret and a QR code (error correction M, margin 16); a 6-digit code switches MFA on and ends the sessions', async () => {
    const u = await createUser(t, org);
    const s = await login(t, u.email);
    const enable = await http().post('/mfa/enable').set(s.auth).expect(200);
    expect(enable.body).toEqual({
      secret: {
        base32: expect.stringMatching(/^[A-Z2-7]+=*$/),
        otpauth_url: expect.stringMatching(/^otpauth:\/\/totp\//),
      },
      qrCode: expect.stringMatching(/^data:image\/png;base64,/),
    });
    const { base32, otpauth_url } = enable.body.secret;
    expect(otpauth_url).toContain(`secret=${base32}`);
    expect(enable.body.qrCode).toBe(await QRCode.toDataURL(otpauth_url, { errorCorrectionLevel: 'M', margin: 16 }));
    expect(enable.body.qrCode).not.toBe(await QRCode.toDataURL(otpauth_url, { errorCorrectionLevel: 'M' }));

    const wrong = await http()
      .post('/mfa/verify')
      .set(s.auth)
      .send({ token: '000000' === (await totp(base32)) ? '111111' : '000000' })
      .expect(400);
    expect(wrong.body.code).toBe('INVALID_MFA_TOKEN');
    const short = await http().post('/mfa/verify').set(s.auth).send({ token: '12345' }).expect(400);
    expect(short.body.message).toBe('MFA must contain exactly 6 digits');

    const verified = await http()
      .post('/mfa/verify')
      .set(s.auth)
      .send({ token: await totp(base32) })
      .expect(200);
    // Success, with the recovery codes shown once.
    expect(verified.body).toEqual({ success: true, recoveryCodes: expect.any(Array) });
    await http().get('/api/users/current').set(s.auth).expect(401);
    const after = await stored(u.id);
    expect(after.isMFAEnabled).toBe(true);
    expect(after.mfaSecret).toBeTruthy();
    expect(after.mfaSecret).not.toContain(base32);

    // The next sign-in asks for the TOTP; a code is accepted once only.
    const next = await totp(base32, Date.now() / 1000 + 30);
    const ok = await loginWithTotp(u.email, next);
    expect(ok.status).toBe(200);
    const again = await loginWithTotp(u.email, next);
    expect(again.status).toBe(401);
    const me = await http().get('/api/users/current').set(fromResponse(ok).auth).expect(200);
    expect(me.body.isMFAEnabled).toBe(true);
  });

  it("disabling one's own MFA asks for a current code, and ends the sessions", async () => {
    const secret = generateSecret();
    const u = await createUser(t, org, { totpSecret: secret });
    const s = fromResponse(
      await loginWithTotp(u.email, await totp(secret)).then((r) => (expect(r.status).toBe(200), r)),
    );
    await http().post('/mfa/disable').set(s.auth).send({ token: '' }).expect(400);
    const wrong = await http()
      .post('/mfa/disable')
      .set(s.auth)
      .send({ token: (await totp(secret)) === '123456' ? '654321' : '123456' })
      .expect(400);
    expect(wrong.body.code).toBe('INVALID_MFA_TOKEN');
    await http()
      .post('/mfa/disable')
      .set(s.auth)
      .send({ token: await totp(secret, Date.now() / 1000 + 30) })
      .expect(200, { success: true });
    await http().get('/api/users/current').set(s.auth).expect(401);
    expect(await stored(u.id)).toMatchObject({ isMFAEnabled: false, mfaSecret: null });
    await login(t, u.email);
  });

  describe('PUT api/mfa/disableUserMfa {userId}', () => {
    it("a site admin disables a user's MFA: the user's sessions end and the next sign-in needs no code", async () => {
      const secret = generateSecret();
      const u = await createUser(t, org, { totpSecret: secret });
      const res = await loginWithTotp(u.email, await totp(secret));
      expect(res.status).toBe(200);
      const userSession = fromResponse(res);
      await http()
        .put('/api/mfa/disableUserMfa')
        .set(siteAdmin.auth)
        .send({ userId: u.id })
        .expect(200, { success: true });
      await http().get('/api/users/current').set(userSession.auth).expect(401);
      expect(await stored(u.id)).toMatchObject({ isMFAEnabled: false, mfaSecret: null, mfaPendingSecret: null });
      await login(t, u.email);
      const list = await http().get('/api/users').query({ searchText: u.email }).set(siteAdmin.auth).expect(200);
      expect(list.body.items[0].isMFAEnabled).toBe(false);
    });

    it("an administrator may disable a user's MFA too (spec 000 §6 writers), but not a site admin's", async () => {
      const administrator = await createUser(t, org, { roleId: Role.STANDARD_ADMIN, isAdministrator: true });
      const s = await login(t, administrator.email);
      const u = await createUser(t, org, { totpSecret: generateSecret() });
      await http().put('/api/mfa/disableUserMfa').set(s.auth).send({ userId: u.id }).expect(200);
      const sa = await createUser(t, org, { roleId: Role.SITE_ADMIN, totpSecret: generateSecret() });
      await http().put('/api/mfa/disableUserMfa').set(s.auth).send({ userId: sa.id }).expect(403);
      expect((await stored(sa.id)).isMFAEnabled).toBe(true);
    });

    it('refuses a user without MFA (400), oneself (403) and bad payloads (400)', async () => {
      const u = await createUser(t, org);
      const res = await http().put('/api/mfa/disableUserMfa').set(siteAdmin.auth).send({ userId: u.id }).expect(400);
      expect(res.body.message).toBe('MFA is not enabled for this user.');
      await http().put('/api/mfa/disableUserMfa').set(siteAdmin.auth).send({ userId: siteAdmin.user.id }).expect(403);
      await http().put('/api/mfa/disableUserMfa').set(siteAdmin.auth).send({ userId: 'x' }).expect(400);
      await http().put('/api/mfa/disableUserMfa').set(siteAdmin.auth).send({}).expect(400);
    });
  });

  describe('an account whose MFA is enforced but not enabled', () => {
    it('can use only its own profile and MFA calls until it enrols', async () => {
      const u = await createUser(t, org, { roleId: Role.SITE_ADMIN, isMFAEnforced: true });
      const other = await createUser(t, org);
      const s = await login(t, u.email);
      const allowed = [
        http().get('/api/users/current').set(s.auth),
        http().get(`/api/users/byId/${u.id}`).set(s.auth),
        http().put('/api/users/updateUser').set(s.auth).send({ firstName: 'Pending' }),
      ];
      for (const call of allowed) expect((await call).status).toBe(200);
      const refused = [
        http().get('/api/users').set(s.auth),
        http().get(`/api/users/byId/${other.id}`).set(s.auth),
        http().get('/auth/organisation').set(s.auth),
        http().put('/api/users/disableUser').set(s.auth).send({ userId: other.id, isDisabled: true }),
        http()
          .put('/api/users/updateRole')
          .set(s.auth)
          .send({ userId: other.id, newUserRoleIds: [Role.VIEWER] }),
        http()
          .post('/api/users/add')
          .set(s.auth)
          .send({ userEmail: `pending-${Date.now()}@example.com` }),
        http().get(`/api/users/${other.id}/user-groups`).set(s.auth),
      ];
      for (const call of refused) {
        const res = await call;
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({
          code: 'MFA_ENROLMENT_REQUIRED',
          message: 'Site Admin has enforced MFA on your account. You must enable MFA to proceed further.',
        });
      }
      expect((await stored(other.id)).isDisabled).toBe(false);

      const enable = await http().post('/mfa/enable').set(s.auth).expect(200);
      await http()
        .post('/mfa/verify')
        .set(s.auth)
        .send({ token: await totp(enable.body.secret.base32) })
        .expect(200);
      const res = await loginWithTotp(u.email, await totp(enable.body.secret.base32, Date.now() / 1000 + 30));
      expect(res.status).toBe(200);
      await http().get('/api/users').set(fromResponse(res).auth).expect(200);
    });

    it('may change its own password', async () => {
      const u = await createUser(t, org, { isMFAEnforced: true });
      const s = await login(t, u.email);
      await http()
        .patch('/api/users/updatePassword')
        .set(s.auth)
        .send({ userPassword: 'Pending-Pass-2', currentPassword: PASSWORD })
        .expect(200);
    });
  });
});
