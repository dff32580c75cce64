import { RefreshToken } from '../../../src/identity/credentials/entities/refresh-token.entity';
import { SessionAuthService } from '../../../src/identity/credentials/session-auth.service';
import { TokenService } from '../../../src/identity/credentials/token.service';
import { AppException } from '../../../src/platform/web/app.exception';
import { JwtService } from '@nestjs/jwt';
import { generateSecret } from 'otplib';
import request from 'supertest';
import { PasswordResetToken } from '../../../src/identity/auth/entities/password-reset-token.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, fromResponse, login, PASSWORD, totp } from '../../utils/factories';
import { lastMailTo, linkIn, readOutbox } from '../../utils/outbox';
import { createTestApp, TestApp } from '../../utils/test-app';

describe('Sign-in (docs/product-rules.md §3, spec 000 §4-§8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (path: string) => request(t.http).post(path);

  describe('POST /auth/login', () => {
    it('signs in with the right password and terms accepted: access token and an HttpOnly refresh cookie on /refresh', async () => {
      const org = await createOrganisation(t);
      const user = await createUser(t, org);
      const res = await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true })
        .expect(200);
      expect(res.body).toEqual({ success: true, accessToken: expect.any(String) });
      const cookie = ([] as string[]).concat(res.headers['set-cookie']).find((c) => c.startsWith('refreshToken='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).toMatch(/Path=\/refresh/);
      const me = await request(t.http)
        .get('/api/users/current')
        .set('Authorization', `Bearer ${res.body.accessToken}`)
        .expect(200);
      expect(me.body).toMatchObject({
        email: user.email,
        organisationCode: org.code,
        masterAccountName: org.name,
        roles: [{ roleName: 'Standard Admin' }],
      });
    });

    it('accepts the e-mail in another case and with spaces around it', async () => {
      const user = await createUser(t, await createOrganisation(t));
      await post('/auth/login')
        .send({ username: `  ${user.email.toUpperCase()} `, password: PASSWORD, acceptToS: true })
        .expect(200);
    });

    it("answers a wrong password and an unknown e-mail alike: 401 'Please try again.'", async () => {
      const user = await createUser(t, await createOrganisation(t));
      const wrong = await post('/auth/login')
        .send({ username: user.email, password: 'nope-nope', acceptToS: true })
        .expect(401);
      const unknown = await post('/auth/login')
        .send({ username: 'nobody@example.com', password: 'nope-nope', acceptToS: true })
        .expect(401);
      for (const res of [wrong, unknown]) {
        expect(res.body).toEqual({
          success: false,
          statusCode: 401,
          code: 'INVALID_CREDENTIALS',
          message: 'Please try again.',
        });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('refuses when the terms are not accepted, with the specification text', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const res = await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: false })
        .expect(400);
      expect(res.body).toMatchObject({
        code: 'TERMS_NOT_ACCEPTED',
        message: 'Please review and accept the terms and conditions.',
      });
    });

    it('refuses a disabled account even with the right password', async () => {
      const user = await createUser(t, await createOrganisation(t), { isDisabled: true });
      const res = await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true })
        .expect(403);
      expect(res.body.code).toBe('ACCOUNT_DISABLED');
    });

    it('asks for a new password first when one is due, and the challenge token then changes it', async () => {
      const user = await createUser(t, await createOrganisation(t), { mustChangePassword: true });
      const first = await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true })
        .expect(401);
      expect(first.body).toMatchObject({
        code: 'PASSWORD_CHANGE_REQUIRED',
        message: 'Please change password before proceeding.',
        challengeToken: expect.any(String),
      });
      expect(first.body.accessToken).toBeUndefined();

      // The challenge token is no access token.
      await request(t.http)
        .get('/api/users/current')
        .set('Authorization', `Bearer ${first.body.challengeToken}`)
        .expect(401);

      const bearer = `Bearer ${first.body.challengeToken}`;
      const wrongCurrent = await post('/auth/change-password')
        .set('Authorization', bearer)
        .send({ currentPassword: 'wrong-one', newPassword: 'Brand-New-Pass-1' })
        .expect(400);
      expect(wrongCurrent.body.code).toBe('INVALID_CREDENTIALS');
      await post('/auth/change-password')
        .set('Authorization', bearer)
        .send({ currentPassword: PASSWORD, newPassword: PASSWORD })
        .expect(400);
      await post('/auth/change-password')
        .set('Authorization', bearer)
        .send({ currentPassword: PASSWORD, newPassword: 'Brand-New-Pass-1' })
        .expect(200, { success: true });

      await post('/auth/login').send({ username: user.email, password: PASSWORD, acceptToS: true }).expect(401);
      await post('/auth/login')
        .send({ username: user.email, password: 'Brand-New-Pass-1', acceptToS: true })
        .expect(200);
      const stored = await t.db.getRepository(User).findOneByOrFail({ id: user.id });
      expect(stored.mustChangePassword).toBe(false);
      expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    });

    it('a forced change ends every open session of the account, with its refresh token', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const open = await login(t, user.email);
      await t.db.getRepository(User).update({ id: user.id }, { mustChangePassword: true });
      const first = await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true })
        .expect(401);
      await post('/auth/change-password')
        .set('Authorization', `Bearer ${first.body.challengeToken}`)
        .send({ currentPassword: PASSWORD, newPassword: 'Brand-New-Pass-1' })
        .expect(200);
      expect((await request(t.http).get('/api/users/current').set(open.auth).expect(401)).body.code).toBe(
        'SESSION_ENDED',
      );
      await request(t.http).post('/refresh').set('Cookie', open.cookie).expect(401);
    });

    it('refuses a forced change without the challenge token, or with an access token', async () => {
      const user = await createUser(t, await createOrganisation(t));
      await post('/auth/change-password')
        .send({ currentPassword: PASSWORD, newPassword: 'Brand-New-Pass-1' })
        .expect(401);
      const { auth } = await login(t, user.email);
      await post('/auth/change-password')
        .set(auth)
        .send({ currentPassword: PASSWORD, newPassword: 'Brand-New-Pass-1' })
        .expect(401);
    });
  });

  describe('second factor', () => {
    const secret = generateSecret();
    let user: User;
    beforeAll(async () => {
      user = await createUser(t, await createOrganisation(t), { totpSecret: secret });
    });

    async function challenge() {
      const res = await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true })
        .expect(401);
      expect(res.body).toMatchObject({
        code: 'TOTP_REQUIRED',
        message: 'Please enter TOTP before proceeding.',
        challengeToken: expect.any(String),
      });
      return `Bearer ${res.body.challengeToken}`;
    }

    it('signs in with the right TOTP code, once only', async () => {
      const bearer = await challenge();
      const code = await totp(secret);
      await post('/auth/login')
        .set('Authorization', bearer)
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: code })
        .expect(200);
      const again = await post('/auth/login')
        .set('Authorization', await challenge())
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: code })
        .expect(401);
      expect(again.body.code).toBe('INVALID_MFA_TOKEN');
    });

    it('refuses a wrong TOTP code', async () => {
      const bearer = await challenge();
      const res = await post('/auth/login')
        .set('Authorization', bearer)
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: '000000' })
        .expect(401);
      expect(res.body.code).toBe('INVALID_MFA_TOKEN');
    });

    it('refuses the MFA step without a challenge, or with the wrong password', async () => {
      const code = await totp(secret, Date.now() / 1000 + 30);
      await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: code })
        .expect(401);
      await post('/auth/login')
        .set('Authorization', await challenge())
        .send({ username: user.email, password: 'wrong-pass', acceptToS: true, mfaToken: code })
        .expect(401);
    });

    it("answers an expired challenge 403 'jwt expired'", async () => {
      const expired = t.app.get(JwtService).sign({ sub: user.id, typ: 'challenge', pur: 'mfa' }, { expiresIn: -10 });
      const res = await post('/auth/login')
        .set('Authorization', `Bearer ${expired}`)
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: '123456' })
        .expect(403);
      expect(res.body).toMatchObject({ success: false, message: 'jwt expired' });
    });

    it('sends a code by e-mail that signs in once', async () => {
      const bearer = await challenge();
      const sent = await post('/mfa/email-mfa').set('Authorization', bearer).expect(200);
      expect(sent.body).toEqual({ success: true, message: 'MFA code has been sent to your email address.' });
      const mail = await lastMailTo(t.dataDir, user.email);
      const code = mail!.text.match(/\b(\d{6})\b/)![1];
      await post('/auth/login')
        .set('Authorization', bearer)
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: code })
        .expect(200);
      await post('/auth/login')
        .set('Authorization', await challenge())
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: code })
        .expect(401);
    });

    it('refuses to e-mail a code without a challenge token', async () => {
      await post('/mfa/email-mfa').expect(401);
    });
  });

  describe('forgotten password', () => {
    it('e-mails a single-use link that resets the password and ends open sessions', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const before = await login(t, user.email);
      const res = await post('/auth/forgot-password').send({ username: user.email }).expect(200);
      expect(res.body).toEqual({
        success: true,
        message: 'An email has been sent with instructions to reset your password.',
      });
      const link = linkIn(await lastMailTo(t.dataDir, user.email))!;
      expect(link).toMatch(/^http:\/\/portal\.test\/resetPassword\?token=/);
      const token = decodeURIComponent(new URL(link).searchParams.get('token')!);

      await post('/auth/reset-password').send({ token, password: 'Fresh-Password-2' }).expect(200, { success: true });
      const reused = await post('/auth/reset-password').send({ token, password: 'Another-Pass-3' }).expect(400);
      expect(reused.body.code).toBe('RESET_TOKEN_INVALID');

      await request(t.http).get('/api/users/current').set(before.auth).expect(401);
      await request(t.http).post('/refresh').set('Cookie', before.cookie).expect(401);
      await post('/auth/login')
        .send({ username: user.email, password: 'Fresh-Password-2', acceptToS: true })
        .expect(200);
      // The token is stored hashed.
      const stored = await t.db.getRepository(PasswordResetToken).findOneByOrFail({ userId: user.id });
      expect(stored.tokenHash).not.toContain(token);
    });

    it('refuses an expired reset link', async () => {
      const user = await createUser(t, await createOrganisation(t));
      await post('/auth/forgot-password').send({ username: user.email }).expect(200);
      const token = decodeURIComponent(
        new URL(linkIn(await lastMailTo(t.dataDir, user.email))!).searchParams.get('token')!,
      );
      await t.db
        .getRepository(PasswordResetToken)
        .update({ userId: user.id }, { expiresAt: new Date(Date.now() - 1000) });
      await post('/auth/reset-password').send({ token, password: 'Fresh-Password-2' }).expect(400);
      await post('/auth/login').send({ username: user.email, password: PASSWORD, acceptToS: true }).expect(200);
    });

    it('answers the same for an unknown account and sends nothing', async () => {
      const before = (await readOutbox(t.dataDir)).length;
      const res = await post('/auth/forgot-password').send({ username: 'ghost@example.com' }).expect(200);
      expect(res.body.message).toBe('An email has been sent with instructions to reset your password.');
      expect((await readOutbox(t.dataDir)).length).toBe(before);
    });

    it('with MFA, issues a link only for a valid TOTP code', async () => {
      const secret = generateSecret();
      const user = await createUser(t, await createOrganisation(t), { totpSecret: secret });
      await post('/auth/forgot-password').send({ username: user.email, mfaCode: '000000' }).expect(200);
      expect(linkIn(await lastMailTo(t.dataDir, user.email))).toBeUndefined();
      await post('/auth/forgot-password').send({ username: user.email }).expect(200);
      expect(linkIn(await lastMailTo(t.dataDir, user.email))).toBeUndefined();
      await post('/auth/forgot-password')
        .send({ username: user.email, mfaCode: await totp(secret) })
        .expect(200);
      expect(linkIn(await lastMailTo(t.dataDir, user.email))).toMatch(/resetPassword\?token=/);
    });
  });

  describe('refresh and logout', () => {
    it('rotates the refresh token on every use and revokes the session when a rotated one comes back', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const first = await login(t, user.email);
      const r1 = await post('/refresh').set('Cookie', first.cookie).expect(200);
      expect(r1.body).toEqual({ success: true, newAccessToken: expect.any(String) });
      const second = fromResponse({ ...r1, body: { accessToken: r1.body.newAccessToken } } as request.Response);
      expect(second.cookie).not.toBe(first.cookie);
      await post('/refresh').set('Cookie', second.cookie).expect(200);

      // The first token, rotated more than the grace period ago, comes back: theft. The session ends.
      await t.db
        .getRepository(RefreshToken)
        .createQueryBuilder()
        .update()
        .set({ usedAt: new Date(Date.now() - 60_000) })
        .where('usedAt IS NOT NULL')
        .execute();
      await post('/refresh').set('Cookie', first.cookie).expect(401);
      await request(t.http).get('/api/users/current').set(second.auth).expect(401);
    });

    it('sets a readable session hint beside the refresh cookie on sign-in and refresh, and clears both on logout', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const cookiesOf = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      const hintOf = (res: request.Response) => cookiesOf(res).find((c) => c.startsWith('signedIn='));
      const signedIn = await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true })
        .expect(200);
      const hint = hintOf(signedIn)!;
      expect(hint).toMatch(/^signedIn=1;/);
      expect(hint).not.toMatch(/HttpOnly/i);
      expect(hint).toMatch(/Path=\/;/);
      expect(hint).toMatch(/SameSite=Strict/i);
      const s = fromResponse(signedIn);
      const refreshed = await post('/refresh').set('Cookie', s.cookie).expect(200);
      expect(hintOf(refreshed)).toMatch(/^signedIn=1;/);
      const next = fromResponse({
        ...refreshed,
        body: { accessToken: refreshed.body.newAccessToken },
      } as request.Response);
      const out = await post('/auth/logout').set(next.auth).set('Cookie', next.cookie).expect(200);
      expect(hintOf(out)).toMatch(/^signedIn=;.*Expires=Thu, 01 Jan 1970/);
      // A refresh that fails clears the hint too, so the page stops asking.
      const refused = await post('/refresh').set('Cookie', s.cookie).expect(401);
      expect(hintOf(refused)).toMatch(/^signedIn=;/);
    });

    it('refuses a refresh without a cookie', async () => {
      const res = await post('/refresh').expect(401);
      expect(res.body.success).toBe(false);
    });

    it("answers an expired access token 403 {success: false, message: 'jwt expired'}", async () => {
      const user = await createUser(t, await createOrganisation(t));
      const { accessToken } = await login(t, user.email);
      const payload = t.app.get(JwtService).decode(accessToken) as { sid: string };
      const expired = t.app.get(JwtService).sign({ sub: user.id, sid: payload.sid, typ: 'access' }, { expiresIn: -5 });
      const res = await request(t.http).get('/api/users/current').set('Authorization', `Bearer ${expired}`).expect(403);
      expect(res.body).toMatchObject({ success: false, message: 'jwt expired' });
    });

    it('answers every bearer header the strategy refuses as the one session check does (status, code, message)', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const { accessToken } = await login(t, user.email);
      const [head, body] = accessToken.split('.');
      const otherKey = new JwtService({ secret: 'another-secret-of-enough-length-0123456789' });
      const headers = [
        undefined,
        '',
        'Bearer',
        'Bearer ',
        `Basic ${accessToken}`,
        'Bearer not-a-token',
        `Bearer ${head}.${body}.`,
        `Bearer ${head}.${body}.${'A'.repeat(43)}`,
        `Bearer ${otherKey.sign({ sub: user.id, sid: 'x', typ: 'access' })}`,
        `Bearer ${accessToken} extra`,
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOjEsInNpZCI6MX0.',
      ];
      const sessions = t.app.get(SessionAuthService);
      for (const authorization of headers) {
        const expected = await sessions.authenticateHeader(authorization, { ip: '127.0.0.1' }).then(
          () => null,
          (e: AppException) => ({ status: e.getStatus(), body: e.getResponse() }),
        );
        expect(expected).not.toBeNull();
        const call = request(t.http).get('/api/users/current');
        const res = await (authorization === undefined ? call : call.set('Authorization', authorization));
        expect({ authorization, status: res.status, body: res.body }).toEqual({ authorization, ...expected });
        expect(res.status).toBe(401);
      }
      // The header that is right still signs in.
      await request(t.http).get('/api/users/current').set('Authorization', `Bearer ${accessToken}`).expect(200);
    });

    it('ends the session on logout: the access token and the refresh cookie stop working at once', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const s = await login(t, user.email);
      expect((await request(t.http).get('/auth/status').set(s.auth).expect(200)).body).toMatchObject({
        authenticated: true,
        user: { email: user.email },
      });
      await post('/auth/logout').set(s.auth).expect(200);
      await request(t.http).get('/api/users/current').set(s.auth).expect(401);
      await post('/refresh').set('Cookie', s.cookie).expect(401);
      const status = await request(t.http).get('/auth/status').set(s.auth).expect(200);
      expect(status.body).toEqual({ authenticated: false });
    });

    it('ends the sessions of a user who is disabled', async () => {
      const user = await createUser(t, await createOrganisation(t));
      const s = await login(t, user.email);
      await t.db.getRepository(User).update({ id: user.id }, { isDisabled: true });
      await request(t.http).get('/api/users/current').set(s.auth).expect(401);
      await post('/refresh').set('Cookie', s.cookie).expect(401);
    });
  });

  describe('bad input gets 400 with the reason, never 500', () => {
    const cases: Array<[string, unknown]> = [
      ['/auth/login', {}],
      ['/auth/login', { username: 'not-an-email', password: 'x', acceptToS: true }],
      ['/auth/login', { username: `${'a'.repeat(95)}@example.com`, password: 'x', acceptToS: true }],
      ['/auth/login', { username: 'a@example.com', password: 'x'.repeat(51), acceptToS: true }],
      ['/auth/login', { username: 'a@example.com', password: 'x', acceptToS: 'yes' }],
      ['/auth/login', { username: 'a@example.com', password: 'x', acceptToS: true, mfaToken: '12345' }],
      ['/auth/login', { username: 'a@example.com', password: 'x', acceptToS: true, admin: true }],
      ['/auth/login', { username: ['a@example.com'], password: { $ne: 1 }, acceptToS: true }],
      ['/auth/forgot-password', { username: 'nope' }],
      ['/auth/forgot-password', { username: 'a@example.com', mfaCode: 'abcdef' }],
      ['/auth/reset-password', { token: '', password: 'Fresh-Password-2' }],
      ['/auth/reset-password', { token: 'x', password: 'short' }],
      ['/auth/reset-password', { token: 'x', password: 'y'.repeat(51) }],
      ['/auth/change-password', { currentPassword: '', newPassword: 'Fresh-Password-2' }],
      ['/mfa/verify', { token: 'abc' }],
    ];
    it.each(cases)('%s %j', async (path, body) => {
      // The forced change's body is read once its challenge token is verified (without one it is a 401, above).
      const challenge =
        path === '/auth/change-password'
          ? t.app
              .get(TokenService)
              .signChallenge((await createUser(t, await createOrganisation(t))).id, 'change-password')
          : null;
      const call = post(path);
      const res = await (challenge ? call.set('Authorization', `Bearer ${challenge}`) : call).send(body as object);
      expect(res.status).toBe(path === '/mfa/verify' ? 401 : 400);
      expect(res.body).toMatchObject({
        success: false,
        statusCode: res.status,
        code: expect.any(String),
        message: expect.any(String),
      });
    });

    it('names the field and the reason', async () => {
      const res = await post('/auth/login')
        .send({ username: 'not-an-email', password: 'x', acceptToS: true })
        .expect(400);
      expect(res.body.message).toBe('Entered email is not a valid email');
      expect(res.body.errors).toEqual([{ field: 'username', message: 'Entered email is not a valid email' }]);
      const unknown = await post('/auth/login')
        .send({ username: 'a@example.com', password: 'x', acceptToS: true, admin: true })
        .expect(400);
      expect(unknown.body.message).toBe('Unknown field "admin".');
    });

    it('answers an empty password (which passport-local refuses before the sign-in machine) as a wrong login', async () => {
      const res = await post('/auth/login')
        .send({ username: 'a@example.com', password: '', acceptToS: true })
        .expect(401);
      expect(res.body).toMatchObject({
        success: false,
        statusCode: 401,
        code: 'INVALID_CREDENTIALS',
        message: 'Please try again.',
      });
    });

    it('answers malformed JSON with 400', async () => {
      const res = await post('/auth/login').set('Content-Type', 'application/json').send('{"username": ').expect(400);
      expect(res.body).toMatchObject({ success: false, message: 'The request body is not valid JSON.' });
    });
  });

  describe('throttling', () => {
    it('refuses the account from this address with 429 after five failures, even for the right password', async () => {
      const user = await createUser(t, await createOrganisation(t));
      for (let i = 0; i < 5; i++)
        await post('/auth/login')
          .send({ username: user.email, password: `wrong-${i}`, acceptToS: true })
          .expect(401);
      const locked = await post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true })
        .expect(429);
      expect(locked.body).toMatchObject({
        code: 'TOO_MANY_ATTEMPTS',
        message: expect.stringMatching(
          /^Too many failed sign-in attempts\. Please wait \d+ minutes? before trying again\.$/,
        ),
      });
      // Another account from the same address is not locked by it.
      const other = await createUser(t, await createOrganisation(t));
      await post('/auth/login').send({ username: other.email, password: PASSWORD, acceptToS: true }).expect(200);
    });
  });

  describe('routes and the client', () => {
    it('keeps unknown API paths JSON 404s', async () => {
      for (const path of ['/api/nope', '/auth/nope', '/mfa/nope', '/api/users/nope/deeper']) {
        const res = await request(t.http).get(path);
        expect([401, 404]).toContain(res.status);
        expect(res.headers['content-type']).toMatch(/json/);
      }
    });

    it('serves health and the OpenAPI document', async () => {
      expect((await request(t.http).get('/api/health').expect(200)).body).toEqual({
        status: 'ok',
        version: expect.any(String),
      });
      const docs = await request(t.http).get('/api/docs-json').expect(200);
      expect(Object.keys(docs.body.paths)).toEqual(
        expect.arrayContaining(['/auth/login', '/refresh', '/mfa/email-mfa']),
      );
    });

    it('bootstraps the vendor organisation and its E-Support account', async () => {
      const s = await login(t, 'support@vendor.test', 'Support-Pass-1');
      const me = await request(t.http).get('/api/users/current').set(s.auth).expect(200);
      expect(me.body.roles).toEqual([{ roleId: Role.E_SUPPORT, roleCode: 'E_SUPPORT', roleName: 'E-Support' }]);
    });
  });
});
