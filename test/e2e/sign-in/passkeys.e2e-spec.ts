import { generateSecret } from 'otplib';
import request from 'supertest';
import { encrypt } from '../../../src/platform/crypto/secrets';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Passkey } from '../../../src/identity/passkeys/passkey.entity';
import { WebAuthnChallenge } from '../../../src/identity/passkeys/webauthn-challenge.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { ALL_ROLES, Role } from '../../../src/shared/roles';
import { User } from '../../../src/platform/database/entities/user.entity';
import { expectErrorBody } from '../../utils/error-body';
import { lastMailTo, outboxDelivered } from '../../utils/outbox';
import { createOrganisation, createUser, fromResponse, LoggedIn, login, PASSWORD, totp } from '../../utils/factories';
import { SoftAuthenticator } from '../../utils/identity-providers/soft-authenticator';
import { createTestApp, TestApp } from '../../utils/test-app';

const ORIGIN = 'http://portal.test';
let address = 0;

/**
 * Passkeys: registration from the profile, the MFA step and the password-less sign-in, with real
 * WebAuthn ceremonies answered by a software ES256 authenticator; abuse: replayed and parallel challenges,
 * another flow's challenge, wrong origin and RP id, another account's and a removed passkey, counters, access.
 */
describe('Passkeys (WebAuthn)', () => {
  let t: TestApp;
  let org: Organisation;

  beforeAll(async () => {
    // Behind a (trusted) proxy, so each test can come from an address of its own and keep its own rate budget.
    t = await createTestApp({ TRUST_PROXY: 'true' });
    org = await createOrganisation(t);
  });
  afterAll(() => t.close());

  const from = () => `10.14.${Math.floor(++address / 250)}.${address % 250}`;
  const post = (path: string, ip = from()) => request(t.http).post(path).set('X-Forwarded-For', ip);
  const get = (path: string) => request(t.http).get(path).set('X-Forwarded-For', from());
  const stored = (id: number) => t.db.getRepository(User).findOneByOrFail({ id });
  const passkeysOf = (userId: number) => t.db.getRepository(Passkey).findBy({ userId });
  const auditOf = (userId: number, type: string) =>
    t.db.getRepository(AuditEvent).findBy({ targetId: userId, type: type as never });

  /** Registers a passkey for a signed-in user through the two calls the profile makes. */
  async function registerPasskey(s: LoggedIn, key: SoftAuthenticator, name = 'Laptop') {
    const options = await post('/mfa/passkeys/registration-options').set(s.auth).expect(200);
    const { response, credential } = key.register(options.body);
    const res = await post('/mfa/passkeys').set(s.auth).send({ name, response }).expect(200);
    return { item: res.body, credential, options: options.body };
  }

  async function userWithPasskey(fields: Partial<User> = {}) {
    const user = await createUser(t, org, fields);
    const s = await login(t, user.email);
    const key = new SoftAuthenticator(ORIGIN);
    const reg = await registerPasskey(s, key);
    return { user, s, key, ...reg };
  }

  const passwordlessOptions = async (ip?: string) => (await post('/auth/passkey/options', ip).expect(200)).body;
  const passwordless = (passkey: unknown, ip?: string) => post('/auth/login', ip).send({ acceptToS: true, passkey });
  /** The password step of a user with a second factor: the MFA challenge token. */
  async function mfaChallenge(email: string): Promise<{ challengeToken: string; passkey?: boolean }> {
    const res = await post('/auth/login').send({ username: email, password: PASSWORD, acceptToS: true }).expect(401);
    expect(res.body.code).toBe('TOTP_REQUIRED');
    return res.body;
  }
  const mfaOptions = async (challengeToken: string) =>
    (await post('/auth/passkey/options').set('Authorization', `Bearer ${challengeToken}`).expect(200)).body;
  const mfaStep = (email: string, challengeToken: string, passkey: unknown) =>
    post('/auth/login')
      .set('Authorization', `Bearer ${challengeToken}`)
      .send({ username: email, password: PASSWORD, acceptToS: true, passkey });

  describe('registration from the profile', () => {
    it('registers a named passkey (discoverable, RP from PUBLIC_URL), lists it, keeps this session and ends the others', async () => {
      const user = await createUser(t, org);
      const here = await login(t, user.email);
      const elsewhere = await login(t, user.email);
      const key = new SoftAuthenticator(ORIGIN);
      const options = await post('/mfa/passkeys/registration-options').set(here.auth).expect(200);
      expect(options.body).toMatchObject({
        rp: { id: 'portal.test', name: 'Tax Portal' },
        user: { name: user.email },
        attestation: 'none',
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
        excludeCredentials: [],
      });
      // The user handle is opaque: 32 bytes, neither the e-mail nor the row id.
      expect(Buffer.from(options.body.user.id, 'base64url')).toHaveLength(32);
      const { response, credential } = key.register(options.body);
      const added = await post('/mfa/passkeys').set(here.auth).send({ name: '  Work laptop ', response }).expect(200);
      expect(added.body).toEqual({
        id: expect.any(Number),
        name: 'Work laptop',
        createdAt: expect.any(String),
        lastUsedAt: null,
        deviceType: 'singleDevice',
        backedUp: false,
      });

      const list = await get('/mfa/passkeys').set(here.auth).expect(200);
      expect(list.body).toEqual([added.body]);
      const me = await get('/api/users/current').set(here.auth).expect(200);
      expect(me.body).toMatchObject({ hasPasskey: true, isMFAEnabled: false });
      await get('/api/users/current').set(elsewhere.auth).expect(401);
      expect((await passkeysOf(user.id))[0]).toMatchObject({ credentialId: credential.id, counter: 0 });
      expect(await auditOf(user.id, 'PASSKEY_ADDED')).toHaveLength(1);

      // The second registration's options exclude the first passkey.
      const again = await post('/mfa/passkeys/registration-options').set(here.auth).expect(200);
      expect(again.body.excludeCredentials).toEqual([
        { id: credential.id, type: 'public-key', transports: ['internal'] },
      ]);
    });

    it('refuses a registration answered for another origin or RP id, a replayed or foreign challenge, a bad name or body (4xx, nothing stored)', async () => {
      const user = await createUser(t, org);
      const other = await login(t, (await createUser(t, org)).email);
      const s = await login(t, user.email);
      const key = new SoftAuthenticator(ORIGIN);
      const options = async (who = s) =>
        (await post('/mfa/passkeys/registration-options').set(who.auth).expect(200)).body;

      const wrongOrigin = await post('/mfa/passkeys')
        .set(s.auth)
        .send({ name: 'x', response: key.register(await options(), { origin: 'https://evil.test' }).response });
      expectErrorBody(wrongOrigin, 400);
      expect(wrongOrigin.body.code).toBe('PASSKEY_INVALID');
      const wrongRp = await post('/mfa/passkeys')
        .set(s.auth)
        .send({ name: 'x', response: key.register(await options(), { rpId: 'evil.test' }).response });
      expect(wrongRp.body.code).toBe('PASSKEY_INVALID');

      // Another account's registration challenge is not this account's.
      const foreign = await post('/mfa/passkeys')
        .set(s.auth)
        .send({ name: 'x', response: key.register(await options(other)).response });
      expectErrorBody(foreign, 401);
      expect(foreign.body.code).toBe('PASSKEY_CHALLENGE_INVALID');

      const opts = await options();
      const ok = key.register(opts).response;
      await post('/mfa/passkeys').set(s.auth).send({ name: 'x', response: ok }).expect(200);
      const replay = await post('/mfa/passkeys')
        .set(s.auth)
        .send({ name: 'y', response: key.register(opts).response });
      expect(replay.body.code).toBe('PASSKEY_CHALLENGE_INVALID');

      // Bad input (another account of the same user's budget: registration allows 10 a minute).
      const s2 = await login(t, (await createUser(t, org)).email);
      const noName = await post('/mfa/passkeys')
        .set(s2.auth)
        .send({ name: '   ', response: key.register(await options()).response });
      expectErrorBody(noName, 400);
      expect(noName.body.message).toContain('Passkey name must be 1 to 50 characters.');
      expectErrorBody(
        await post('/mfa/passkeys')
          .set(s2.auth)
          .send({ name: 'x'.repeat(51), response: ok }),
        400,
      );
      expectErrorBody(
        await post('/mfa/passkeys')
          .set(s2.auth)
          .send({ name: 'x', response: { ...ok, type: 'password' } }),
        400,
      );
      expectErrorBody(
        await post('/mfa/passkeys')
          .set(s2.auth)
          .send({ name: 'x', response: { ...ok, response: 'junk' } }),
        400,
      );
      expectErrorBody(
        await post('/mfa/passkeys')
          .set(s2.auth)
          .send({ name: 'x', response: { ...ok, extra: 1 } }),
        400,
      );
      expectErrorBody(
        await post('/mfa/passkeys')
          .set(s2.auth)
          .send({
            name: 'x',
            response: { ...ok, response: { clientDataJSON: 'not base64url!', attestationObject: 'AA' } },
          }),
        400,
      );
      expect(await passkeysOf(user.id)).toHaveLength(1);
    });

    it("renames and removes only the caller's own passkeys; removing the last clears hasPasskey and ends the other sessions", async () => {
      const { user, s, item } = await userWithPasskey();
      const otherOrg = await createOrganisation(t);
      const colleague = await userWithPasskey();
      const outsider = await login(t, (await createUser(t, otherOrg, { roleId: Role.SITE_ADMIN })).email);
      const support = await login(t, 'support@vendor.test', 'Support-Pass-1');
      const admin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);

      for (const who of [colleague.s, outsider, support, admin]) {
        expectErrorBody(await request(t.http).delete(`/mfa/passkeys/${item.id}`).set(who.auth), 404);
        expectErrorBody(
          await request(t.http).patch(`/mfa/passkeys/${item.id}`).set(who.auth).send({ name: 'mine' }),
          404,
        );
        expect(
          (await get('/mfa/passkeys').set(who.auth).expect(200)).body.map((p: { id: number }) => p.id),
        ).not.toContain(item.id);
      }
      await request(t.http).delete(`/mfa/passkeys/${item.id}`).expect(401);
      expectErrorBody(await request(t.http).delete('/mfa/passkeys/abc').set(s.auth), 400);

      await request(t.http).patch(`/mfa/passkeys/${item.id}`).set(s.auth).send({ name: 'Phone' }).expect(200);
      expect((await get('/mfa/passkeys').set(s.auth)).body[0].name).toBe('Phone');

      const elsewhere = await login(t, user.email).catch(() => null);
      expect(elsewhere).toBeNull(); // a password alone no longer signs this account in: the passkey is its second factor
      await request(t.http).delete(`/mfa/passkeys/${item.id}`).set(s.auth).expect(200, { success: true });
      expect(await passkeysOf(user.id)).toEqual([]);
      expect(await stored(user.id)).toMatchObject({ hasPasskey: false });
      expect(await auditOf(user.id, 'PASSKEY_REMOVED')).toHaveLength(1);
      expect((await get('/api/users/current').set(s.auth).expect(200)).body.hasPasskey).toBe(false);
      await login(t, user.email);
    });

    it("is open to every role, on the caller's own account only, and to nobody signed out", async () => {
      for (const roleId of ALL_ROLES.filter((r) => r !== Role.ADMINISTRATOR)) {
        const u = await createUser(t, org, { roleId, isAdministrator: roleId === Role.STANDARD_ADMIN });
        const s = await login(t, u.email);
        await registerPasskey(s, new SoftAuthenticator(ORIGIN));
        expect((await get('/mfa/passkeys').set(s.auth).expect(200)).body).toHaveLength(1);
      }
      await post('/mfa/passkeys/registration-options').expect(401);
      await post('/mfa/passkeys').send({}).expect(401);
      await get('/mfa/passkeys').expect(401);
    });
  });

  describe('the MFA step', () => {
    it('offers the passkey after the password and accepts it in place of the TOTP code; lastUsedAt is set', async () => {
      const { user, key } = await userWithPasskey();
      const first = await mfaChallenge(user.email);
      expect(first.passkey).toBe(true);
      const options = await mfaOptions(first.challengeToken);
      expect(options).toMatchObject({
        rpId: 'portal.test',
        userVerification: 'preferred',
        allowCredentials: [{ id: key.credentials[0].id, transports: ['internal'] }],
      });
      // A second factor after the password: user verification is preferred, not required.
      const res = await mfaStep(user.email, first.challengeToken, key.assert(options, { userVerified: false }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, accessToken: expect.any(String) });
      expect((await passkeysOf(user.id))[0]).toMatchObject({ counter: 1, lastUsedAt: expect.any(Date) });
      expect((await get('/mfa/passkeys').set(fromResponse(res).auth)).body[0].lastUsedAt).toEqual(expect.any(String));
    });

    it('TOTP still works beside a passkey, and a user with TOTP only is not offered one', async () => {
      const secret = generateSecret();
      const both = await userWithPasskey();
      await t.db
        .getRepository(User)
        .update({ id: both.user.id }, { isMFAEnabled: true, mfaSecret: encrypt(secret, t.config.encryptionKey) });
      const first = await mfaChallenge(both.user.email);
      await post('/auth/login')
        .set('Authorization', `Bearer ${first.challengeToken}`)
        .send({ username: both.user.email, password: PASSWORD, acceptToS: true, mfaToken: await totp(secret) })
        .expect(200);
      const totpOnly = await createUser(t, org, { totpSecret: secret });
      const c = await mfaChallenge(totpOnly.email);
      expect(c.passkey).toBeUndefined();
      expectErrorBody(await post('/auth/passkey/options').set('Authorization', `Bearer ${c.challengeToken}`), 400);
      // Both a code and a passkey at once: refused.
      const twice = await post('/auth/login')
        .set('Authorization', `Bearer ${first.challengeToken}`)
        .send({ username: both.user.email, password: PASSWORD, acceptToS: true, mfaToken: '123456', passkey: {} });
      expectErrorBody(twice, 400);
    });

    it("refuses another account's passkey, a replayed challenge, another flow's challenge, a wrong origin or RP id, and a counter that does not grow", async () => {
      const a = await userWithPasskey();
      const b = await userWithPasskey();
      const bFirst = await mfaChallenge(b.user.email);

      // A's credential answering B's MFA challenge.
      const foreign = await mfaStep(
        b.user.email,
        bFirst.challengeToken,
        a.key.assert(await mfaOptions(bFirst.challengeToken), { credential: a.credential }),
      );
      expectErrorBody(foreign, 401);
      expect(foreign.body).toMatchObject({
        code: 'PASSKEY_INVALID',
        message: 'This passkey belongs to another account.',
      });

      // A's own MFA challenge presented in B's sign-in.
      const aFirst = await mfaChallenge(a.user.email);
      const crossed = await mfaStep(
        b.user.email,
        bFirst.challengeToken,
        b.key.assert({
          ...(await mfaOptions(bFirst.challengeToken)),
          challenge: (await mfaOptions(aFirst.challengeToken)).challenge,
        }),
      );
      expect(crossed.body.code).toBe('PASSKEY_CHALLENGE_INVALID');

      // Another flow's challenge: a password-less one, and a registration one.
      const fromLogin = await mfaStep(
        b.user.email,
        bFirst.challengeToken,
        b.key.assert({ ...(await passwordlessOptions()), allowCredentials: undefined }),
      );
      expect(fromLogin.body.code).toBe('PASSKEY_CHALLENGE_INVALID');
      const regOptions = (await post('/mfa/passkeys/registration-options').set(b.s.auth).expect(200)).body;
      const fromRegistration = await mfaStep(
        b.user.email,
        bFirst.challengeToken,
        b.key.assert({ challenge: regOptions.challenge }),
      );
      expect(fromRegistration.body.code).toBe('PASSKEY_CHALLENGE_INVALID');

      const wrongOrigin = await mfaStep(
        b.user.email,
        bFirst.challengeToken,
        b.key.assert(await mfaOptions(bFirst.challengeToken), { origin: 'http://portal.test.evil.test' }),
      );
      expect(wrongOrigin.body.code).toBe('PASSKEY_INVALID');
      const wrongRp = await mfaStep(
        b.user.email,
        bFirst.challengeToken,
        b.key.assert(await mfaOptions(bFirst.challengeToken), { rpId: 'evil.test' }),
      );
      expect(wrongRp.body.code).toBe('PASSKEY_INVALID');

      const options = await mfaOptions(bFirst.challengeToken);
      const good = b.key.assert(options);
      await mfaStep(b.user.email, bFirst.challengeToken, good).expect(200);
      const replay = await mfaStep(b.user.email, bFirst.challengeToken, good);
      expectErrorBody(replay, 401);
      expect(replay.body.code).toBe('PASSKEY_CHALLENGE_INVALID');

      // A cloned authenticator: a counter at or below the stored one.
      const stale = await mfaStep(
        b.user.email,
        bFirst.challengeToken,
        b.key.assert(await mfaOptions(bFirst.challengeToken), { counter: 1 }),
      );
      expect(stale.body.code).toBe('PASSKEY_INVALID');

      // Without the challenge token, or with a bad signature.
      const noToken = await post('/auth/login').send({
        username: b.user.email,
        password: PASSWORD,
        acceptToS: true,
        passkey: b.key.assert(await mfaOptions(bFirst.challengeToken)),
      });
      expectErrorBody(noToken, 401);
      const tampered = b.key.assert(await mfaOptions(bFirst.challengeToken)) as { response: { signature: string } };
      tampered.response.signature = tampered.response.signature.slice(0, -4) + 'AAAA';
      expect((await mfaStep(b.user.email, bFirst.challengeToken, tampered)).body.code).toBe('PASSKEY_INVALID');
      expect(
        (await auditOf(b.user.id, 'SIGN_IN_FAILED')).filter((e) => e.summary.startsWith('Passkey not verified')).length,
      ).toBeGreaterThanOrEqual(6);
    });

    it('of two parallel verifications of one challenge, exactly one wins', async () => {
      const { user, key } = await userWithPasskey();
      for (let round = 0; round < 3; round++) {
        const first = await mfaChallenge(user.email);
        const answer = key.assert(await mfaOptions(first.challengeToken));
        const results = await Promise.all([0, 1, 2, 3].map(() => mfaStep(user.email, first.challengeToken, answer)));
        expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
        for (const r of results.filter((x) => x.status === 401)) expect(r.body.code).toBe('PASSKEY_CHALLENGE_INVALID');
      }
    });
  });

  describe('password-less sign-in', () => {
    it('signs in with a discoverable passkey alone (user verified), with the terms accepted', async () => {
      const { user, key } = await userWithPasskey();
      const options = await passwordlessOptions();
      expect(options).toMatchObject({ rpId: 'portal.test', userVerification: 'required' });
      expect(options.allowCredentials).toBeUndefined();
      const noTerms = await post('/auth/login').send({ acceptToS: false, passkey: key.assert(options) });
      expectErrorBody(noTerms, 400);
      expect(noTerms.body.code).toBe('TERMS_NOT_ACCEPTED');
      const res = await passwordless(key.assert(await passwordlessOptions()));
      expect(res.status).toBe(200);
      const me = await get('/api/users/current').set(fromResponse(res).auth).expect(200);
      expect(me.body.email).toBe(user.email);
      const events = await auditOf(user.id, 'SIGN_IN_SUCCEEDED');
      expect(events.map((e) => e.summary)).toContain('Signed in (passkey)');
    });

    it('refuses an assertion without user verification, an unknown or removed passkey, a replayed or MFA-step challenge, and bad input (4xx)', async () => {
      const { s, key, item } = await userWithPasskey();
      const noUv = await passwordless(key.assert(await passwordlessOptions(), { userVerified: false }));
      expect(noUv.body.code).toBe('PASSKEY_INVALID');

      const stranger = new SoftAuthenticator(ORIGIN);
      stranger.register({ challenge: 'x', rp: { id: 'portal.test' }, user: { id: 'AAAA' } });
      const unknown = await passwordless(stranger.assert(await passwordlessOptions()));
      expectErrorBody(unknown, 401);
      expect(unknown.body.message).toBe('This passkey is not registered for an account here.');

      const options = await passwordlessOptions();
      const answer = key.assert(options);
      await passwordless(answer).expect(200);
      expect((await passwordless(answer)).body.code).toBe('PASSKEY_CHALLENGE_INVALID');

      const mfaOnly = await userWithPasskey();
      const c = await mfaChallenge(mfaOnly.user.email);
      const stolenMfaChallenge = await passwordless(mfaOnly.key.assert(await mfaOptions(c.challengeToken)));
      expect(stolenMfaChallenge.body.code).toBe('PASSKEY_CHALLENGE_INVALID');

      // A challenge that was never issued, one that expired, and malformed answers.
      expect((await passwordless(key.assert({ challenge: 'bmV2ZXItaXNzdWVk' }))).body.code).toBe(
        'PASSKEY_CHALLENGE_INVALID',
      );
      const expiring = await passwordlessOptions();
      await t.db
        .getRepository(WebAuthnChallenge)
        .update({ challenge: expiring.challenge }, { expiresAt: new Date(Date.now() - 1000) });
      expect((await passwordless(key.assert(expiring))).body.code).toBe('PASSKEY_CHALLENGE_INVALID');
      const junk = key.assert(await passwordlessOptions()) as { response: Record<string, string> };
      expectErrorBody(
        await passwordless({ ...junk, response: { ...junk.response, clientDataJSON: 'bm90IGpzb24' } }),
        401,
      );
      expectErrorBody(await passwordless({ ...junk, id: 'a/b' }), 400);
      expectErrorBody(await passwordless('junk'), 400);
      expectErrorBody(await post('/auth/login').send({ acceptToS: true }), 400);
      expectErrorBody(
        await post('/auth/login').send({ acceptToS: true, username: 'x@example.com', passkey: junk }),
        400,
      );

      await request(t.http).delete(`/mfa/passkeys/${item.id}`).set(s.auth).expect(200);
      const removed = await passwordless(key.assert(await passwordlessOptions()));
      expectErrorBody(removed, 401);
      expect(removed.body.code).toBe('PASSKEY_INVALID');
    });

    it('applies the checks of a password sign-in: disabled or blocked account, forced password change, concurrent-users limit', async () => {
      const disabled = await userWithPasskey();
      await t.db.getRepository(User).update({ id: disabled.user.id }, { isDisabled: true });
      const d = await passwordless(disabled.key.assert(await passwordlessOptions()));
      expectErrorBody(d, 403);
      expect(d.body.code).toBe('ACCOUNT_DISABLED');
      const blocked = await userWithPasskey();
      await t.db.getRepository(User).update({ id: blocked.user.id }, { isBlocked: true });
      expect((await passwordless(blocked.key.assert(await passwordlessOptions()))).body.code).toBe('ACCOUNT_DISABLED');

      const mustChange = await userWithPasskey();
      await t.db.getRepository(User).update({ id: mustChange.user.id }, { mustChangePassword: true });
      const m = await passwordless(mustChange.key.assert(await passwordlessOptions()));
      expect(m.status).toBe(401);
      expect(m.body).toMatchObject({ code: 'PASSWORD_CHANGE_REQUIRED', challengeToken: expect.any(String) });

      const small = await createOrganisation(t, { maxConcurrentUsers: 1 });
      const busy = await createUser(t, small);
      const late = await createUser(t, small);
      const lateSession = await login(t, late.email);
      const lateKey = new SoftAuthenticator(ORIGIN);
      await registerPasskey(lateSession, lateKey);
      await request(t.http).post('/auth/logout').set(lateSession.auth).expect(200);
      await login(t, busy.email);
      const full = await passwordless(lateKey.assert(await passwordlessOptions()));
      expectErrorBody(full, 403);
      expect(full.body.code).toBe('CONCURRENT_USERS_EXCEEDED');
    });
  });

  describe('enforced MFA and the administrator', () => {
    it('a passkey satisfies enforced MFA: the user is not pushed to enrol TOTP', async () => {
      const user = await createUser(t, org, { roleId: Role.SITE_ADMIN, isMFAEnforced: true });
      const s = await login(t, user.email);
      const pending = await get('/api/users').set(s.auth);
      expectErrorBody(pending, 403);
      expect(pending.body.code).toBe('MFA_ENROLMENT_REQUIRED');
      const key = new SoftAuthenticator(ORIGIN);
      await registerPasskey(s, key);
      await get('/api/users').set(s.auth).expect(200);
      const res = await passwordless(key.assert(await passwordlessOptions()));
      const me = await get('/api/users/current').set(fromResponse(res).auth).expect(200);
      expect(me.body).toMatchObject({ isMFAEnforced: true, isMFAEnabled: false, hasPasskey: true });
      await get('/api/users').set(fromResponse(res).auth).expect(200);
    });

    it('a passkey-only account may have its sign-in code e-mailed in the MFA step, as a TOTP one may', async () => {
      const { user } = await userWithPasskey();
      const first = await mfaChallenge(user.email);
      await post('/mfa/email-mfa').set('Authorization', `Bearer ${first.challengeToken}`).expect(200);
      await outboxDelivered(t.dataDir);
      const code = (await lastMailTo(t.dataDir, user.email))!.text.match(/\b(\d{6})\b/)![1];
      await post('/auth/login')
        .set('Authorization', `Bearer ${first.challengeToken}`)
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: code })
        .expect(200);
    });

    it('the user list shows a passkey-only account as having MFA, so its administrator can disable it', async () => {
      const { user } = await userWithPasskey();
      const admin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
      const list = await get(`/api/users?searchText=${encodeURIComponent(user.email)}`)
        .set(admin.auth)
        .expect(200);
      expect(list.body.items).toEqual([
        expect.objectContaining({ id: user.id, isMFAEnabled: false, hasPasskey: true }),
      ]);
      const one = await get(`/api/users/byId/${user.id}`).set(admin.auth).expect(200);
      expect(one.body).toMatchObject({ isMFAEnabled: false, hasPasskey: true });
    });

    it("'Disable User MFA' removes a user's passkeys (the way back after a lost authenticator) and ends their sessions", async () => {
      const { user, s, key } = await userWithPasskey();
      const admin = await login(t, (await createUser(t, org, { roleId: Role.SITE_ADMIN })).email);
      await request(t.http)
        .put('/api/mfa/disableUserMfa')
        .set(admin.auth)
        .send({ userId: user.id })
        .expect(200, { success: true });
      expect(await passkeysOf(user.id)).toEqual([]);
      expect(await stored(user.id)).toMatchObject({ hasPasskey: false, isMFAEnabled: false });
      await get('/api/users/current').set(s.auth).expect(401);
      expect((await passwordless(key.assert(await passwordlessOptions()))).body.code).toBe('PASSKEY_INVALID');
      const events = await auditOf(user.id, 'MFA_DISABLED_BY_ADMIN');
      expect(events[0].summary).toContain('1 passkey(s) removed');
      await login(t, user.email);
    });
  });
});

/** Rate limits on the new verification calls, proved with requests fired in parallel. */
describe('Passkeys: rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sign-in options: 30 a minute per address, so at most 30 password-less verifications a minute', async () => {
    const results = await Promise.all(Array.from({ length: 35 }, () => request(t.http).post('/auth/passkey/options')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expectErrorBody(
      results.find((r) => r.status === 429)!,
      429,
    );
  });

  it('registration: 10 verifications a minute per account', async () => {
    const org = await createOrganisation(t);
    const s = await login(t, (await createUser(t, org)).email);
    const results = await Promise.all(
      Array.from({ length: 13 }, () =>
        request(t.http).post('/mfa/passkeys').set(s.auth).send({ name: 'x', response: {} }),
      ),
    );
    expect(results.filter((r) => r.status === 429)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(10);
  });
});
