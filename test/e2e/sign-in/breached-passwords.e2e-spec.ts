import request from 'supertest';
import { randomToken, sha256 } from '../../../src/platform/crypto/secrets';
import { PasswordResetToken } from '../../../src/identity/auth/entities/password-reset-token.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { SECURITY_MESSAGES } from '../../../src/shared/messages';
import { createOrganisation, createUser, login, PASSWORD } from '../../utils/factories';
import { RangeServer, RangeServerMode, startRangeServer } from '../../utils/servers/range-server';
import { createTestApp, TestApp } from '../../utils/test-app';

/** Known only to the range server: passes the specification's rules and the offline list. */
const RANGE_ONLY = 'Quiet-Lantern-Orbit-47';
/** In the offline list as "password" followed by digits and a symbol. */
const OFFLINE = 'Password1234!';
const TIMEOUT_MS = '3000';

describe('Breached passwords are refused wherever a password is set (docs/product-rules.md §7)', () => {
  let t: TestApp;
  let range: RangeServer;

  beforeAll(async () => {
    // The slow server answers after a minute: far past the timeout, which leaves a loaded machine time for the others.
    range = await startRangeServer([RANGE_ONLY], 60_000);
    t = await createTestApp({ PWNED_PASSWORDS_URL: range.url, PWNED_PASSWORDS_TIMEOUT_MS: TIMEOUT_MS });
  });
  afterAll(async () => {
    await t?.close();
    await range?.close();
  });
  beforeEach(() => {
    range.mode = 'up';
  });

  const hashOf = async (id: number) => (await t.db.getRepository(User).findOneByOrFail({ id })).passwordHash;

  /** Each place a signed-in or signing-in user sets a password: a fresh user, and a call that sets `password`. */
  const places: Array<[string, () => Promise<{ user: User; set: (password: string) => request.Test }>]> = [
    [
      'the first-login change',
      async () => {
        const user = await createUser(t, await createOrganisation(t), { mustChangePassword: true });
        const first = await request(t.http)
          .post('/auth/login')
          .send({ username: user.email, password: PASSWORD, acceptToS: true })
          .expect(401);
        const bearer = `Bearer ${first.body.challengeToken}`;
        return {
          user,
          set: (newPassword) =>
            request(t.http)
              .post('/auth/change-password')
              .set('Authorization', bearer)
              .send({ currentPassword: PASSWORD, newPassword }),
        };
      },
    ],
    [
      'the profile',
      async () => {
        const user = await createUser(t, await createOrganisation(t));
        const { auth } = await login(t, user.email);
        return {
          user,
          set: (userPassword) =>
            request(t.http)
              .patch('/api/users/updatePassword')
              .set(auth)
              .send({ currentPassword: PASSWORD, userPassword }),
        };
      },
    ],
    [
      'the reset link',
      async () => {
        const user = await createUser(t, await createOrganisation(t));
        const token = randomToken();
        await t.db.getRepository(PasswordResetToken).insert({
          userId: user.id,
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + 3_600_000),
          usedAt: null,
        });
        return { user, set: (password) => request(t.http).post('/auth/reset-password').send({ token, password }) };
      },
    ],
  ];

  describe.each(places)('%s', (_name, open) => {
    it('refuses a password of the offline list with 400 PASSWORD_BREACHED and the reason, changing nothing', async () => {
      const { user, set } = await open();
      const before = await hashOf(user.id);
      const res = await set(OFFLINE).expect(400);
      expect(res.body).toMatchObject({
        success: false,
        statusCode: 400,
        code: 'PASSWORD_BREACHED',
        message: SECURITY_MESSAGES.PASSWORD_BREACHED,
      });
      expect(await hashOf(user.id)).toBe(before);
      // The specification's own rules come first: a listed password that is too short is refused for its length.
      expect((await set('abc123').expect(400)).body.code).toBe('VALIDATION_FAILED');
      // The refusal spent nothing: the same call with a good password still works.
      await set('Unlisted-Kestrel-Vale-8').expect(200);
    });

    it('refuses a password the range API knows while it answers', async () => {
      const { user, set } = await open();
      const before = await hashOf(user.id);
      expect((await set(RANGE_ONLY).expect(400)).body.code).toBe('PASSWORD_BREACHED');
      expect(await hashOf(user.id)).toBe(before);
    });

    it.each<RangeServerMode>(['slow', 'error'])(
      'with the range API %s, the offline list decides alone and the change goes through',
      async (mode) => {
        range.mode = mode;
        const { user, set } = await open();
        const before = await hashOf(user.id);
        expect((await set(OFFLINE).expect(400)).body.code).toBe('PASSWORD_BREACHED');
        await set(RANGE_ONLY).expect(200);
        expect(await hashOf(user.id)).not.toBe(before);
      },
    );
  });

  describe('BOOTSTRAP_SUPPORT_PASSWORD', () => {
    it('a breached one fails the start on an empty database, naming the variable', async () => {
      await expect(createTestApp({ BOOTSTRAP_SUPPORT_PASSWORD: OFFLINE })).rejects.toThrow(
        /BOOTSTRAP_SUPPORT_PASSWORD is refused.*data breaches/,
      );
      await expect(
        createTestApp({
          BOOTSTRAP_SUPPORT_PASSWORD: RANGE_ONLY,
          PWNED_PASSWORDS_URL: range.url,
          PWNED_PASSWORDS_TIMEOUT_MS: TIMEOUT_MS,
        }),
      ).rejects.toThrow(/BOOTSTRAP_SUPPORT_PASSWORD/);
    });

    it('with the range API down, one only it would know is accepted and signs in', async () => {
      range.mode = 'error';
      const other = await createTestApp({
        BOOTSTRAP_SUPPORT_PASSWORD: RANGE_ONLY,
        PWNED_PASSWORDS_URL: range.url,
        PWNED_PASSWORDS_TIMEOUT_MS: TIMEOUT_MS,
      });
      try {
        await login(other, 'support@vendor.test', RANGE_ONLY);
      } finally {
        await other.close();
      }
    });
  });
});
