import { generateSecret } from 'otplib';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { encrypt } from '../../../src/platform/crypto/secrets';
import { Passkey } from '../../../src/identity/passkeys/passkey.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { OrganisationDomain } from '../../../src/identity/domains/entities/organisation-domain.entity';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { ScimToken } from '../../../src/identity/scim/entities/scim-token.entity';
import { SECURITY_MESSAGES } from '../../../src/shared/messages';
import { ALL_ROLES, Role, ROLE_CODES } from '../../../src/shared/roles';
import { User } from '../../../src/platform/database/entities/user.entity';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, LoggedIn, login, PASSWORD, totp } from '../../utils/factories';
import { siteAdminPayload, uniq } from '../../utils/org-admin';
import { SoftAuthenticator } from '../../utils/identity-providers/soft-authenticator';
import { ageSession, sessionIdOf } from '../../utils/step-up';
import { createTestApp, TestApp } from '../../utils/test-app';

const ORIGIN = 'http://portal.test';

/** The status, the error body (docs/product-rules.md §3), and its code. */
function refused(res: request.Response, status: number, code: string): void {
  expectErrorBody(res, status);
  expect(res.body.code).toBe(code);
}
/** Past the suites' STEP_UP_MINUTES (60, test-app.ts). */
const STALE = 61;
let address = 0;

/**
 * Re-authentication before sensitive actions (docs/product-rules.md §7): every sensitive call refused without a recent proof,
 * allowed within STEP_UP_MINUTES of a step-up or of the sign-in, refused again after; every factor; another session
 * and another organisation; parallel step-ups. Time is moved with the session's mark, never waited for.
 */
describe('Step-up before sensitive actions', () => {
  let t: TestApp;
  let org: Organisation;
  let vendor: Organisation;

  beforeAll(async () => {
    // Behind a (trusted) proxy: each test comes from an address of its own, so sign-in throttling stays per test.
    t = await createTestApp({ TRUST_PROXY: 'true' });
    org = await createOrganisation(t);
    vendor = await createOrganisation(t, { isVendor: true });
  });
  afterAll(() => t.close());

  const from = () => `10.34.${Math.floor(++address / 250)}.${address % 250}`;
  const events = (type: string, actorId: number) =>
    t.db.getRepository(AuditEvent).findBy({ type: type as never, actorId });
  async function signedIn(fields: Partial<User> = {}, where = org) {
    const user = await createUser(t, where, fields);
    return { user, s: await login(t, user.email) };
  }
  /** Signed in, then MFA switched on (as if enrolled in this session): the session stays open. */
  async function signedInWithMfa(fields: Partial<User>, secret: string) {
    const signed = await signedIn(fields);
    await t.db
      .getRepository(User)
      .update({ id: signed.user.id }, { isMFAEnabled: true, mfaSecret: encrypt(secret, t.config.encryptionKey) });
    return signed;
  }
  const stepUp = (s: LoggedIn, proof: object, ip = from()) =>
    request(t.http).post('/auth/step-up').set(s.auth).set('X-Forwarded-For', ip).send(proof);

  /** Each sensitive call: who makes it, and one call that succeeds (on a fresh target each time). */
  const calls: Array<{
    name: string;
    caller: () => Partial<User>;
    where?: () => Organisation;
    call: (s: LoggedIn, caller: User) => Promise<{ res: request.Response; unchanged?: () => Promise<void> }>;
    status: number;
  }> = [
    {
      name: 'GET /api/users/export',
      caller: () => ({ roleId: Role.SITE_ADMIN }),
      call: async (s) => ({ res: await request(t.http).get('/api/users/export').set(s.auth) }),
      status: 200,
    },
    {
      name: 'GET /api/audit-events/export',
      caller: () => ({ roleId: Role.SITE_ADMIN }),
      call: async (s) => ({ res: await request(t.http).get('/api/audit-events/export').set(s.auth) }),
      status: 200,
    },
    {
      name: "PUT /api/mfa/disableUserMfa (another account's MFA)",
      caller: () => ({ roleId: Role.SITE_ADMIN }),
      call: async (s) => {
        const target = await createUser(t, org, { totpSecret: generateSecret() });
        const res = await request(t.http).put('/api/mfa/disableUserMfa').set(s.auth).send({ userId: target.id });
        return {
          res,
          unchanged: async () =>
            expect((await t.db.getRepository(User).findOneByOrFail({ id: target.id })).isMFAEnabled).toBe(true),
        };
      },
      status: 200,
    },
    {
      name: 'DELETE /mfa/passkeys/:id (removing a passkey)',
      caller: () => ({ roleId: Role.ANALYST }),
      call: async (s, caller) => {
        const key = await t.db.getRepository(Passkey).save(
          t.db.getRepository(Passkey).create({
            userId: caller.id,
            credentialId: randomBytes(16).toString('base64url'),
            publicKey: 'unused',
            counter: 0,
            name: 'Laptop',
            deviceType: 'singleDevice',
          }),
        );
        const res = await request(t.http).delete(`/mfa/passkeys/${key.id}`).set(s.auth);
        return {
          res,
          unchanged: async () => expect(await t.db.getRepository(Passkey).existsBy({ id: key.id })).toBe(true),
        };
      },
      status: 200,
    },
    {
      name: 'POST /mfa/passkeys/registration-options (adding a passkey)',
      caller: () => ({ roleId: Role.VIEWER }),
      call: async (s) => ({ res: await request(t.http).post('/mfa/passkeys/registration-options').set(s.auth) }),
      status: 200,
    },
    {
      name: 'POST /mfa/enable (enrolling an authenticator app)',
      caller: () => ({ roleId: Role.ANALYST }),
      call: async (s, caller) => {
        const pending = async () =>
          (await t.db.getRepository(User).findOneByOrFail({ id: caller.id })).mfaPendingSecret;
        const before = await pending();
        const res = await request(t.http).post('/mfa/enable').set(s.auth);
        return { res, unchanged: async () => expect(await pending()).toBe(before) };
      },
      status: 200,
    },
    {
      name: 'PUT /api/users/updateRole granting Administrator',
      caller: () => ({ roleId: Role.SITE_ADMIN }),
      call: async (s) => {
        const target = await createUser(t, org, { roleId: Role.STANDARD_ADMIN });
        const res = await request(t.http)
          .put('/api/users/updateRole')
          .set(s.auth)
          .send({ userId: target.id, newUserRoleIds: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR] });
        return {
          res,
          unchanged: async () =>
            expect((await t.db.getRepository(User).findOneByOrFail({ id: target.id })).isAdministrator).toBe(false),
        };
      },
      status: 200,
    },
    {
      name: 'POST /api/users/add with the Administrator role',
      caller: () => ({ roleId: Role.SITE_ADMIN }),
      call: async (s) => {
        const email = `admin-${uniq().toLowerCase()}@example.com`;
        const res = await request(t.http)
          .post('/api/users/add')
          .set(s.auth)
          .send({ userEmail: email, userRoleIds: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR] });
        return {
          res,
          unchanged: async () => expect(await t.db.getRepository(User).existsBy({ email })).toBe(false),
        };
      },
      status: 201,
    },
    {
      name: 'POST /auth/site-admin (granting Site Admin)',
      caller: () => ({ roleId: Role.E_SUPPORT }),
      where: () => vendor,
      call: async (s) => ({ res: await request(t.http).post('/auth/site-admin').set(s.auth).send(siteAdminPayload()) }),
      status: 201,
    },
    {
      name: 'POST /api/users/add-esupport',
      caller: () => ({ roleId: Role.E_SUPPORT }),
      where: () => vendor,
      call: async (s) => ({
        res: await request(t.http)
          .post('/api/users/add-esupport')
          .set(s.auth)
          .send({ userName: `support.${uniq().toLowerCase()}` }),
      }),
      status: 201,
    },
    {
      name: 'POST /api/sso-connections (adding an identity provider)',
      caller: () => ({ roleId: Role.SITE_ADMIN }),
      call: async (s) => {
        const name = `Okta ${uniq()}`;
        const res = await request(t.http).post('/api/sso-connections').set(s.auth).send({
          protocol: 'oidc',
          name,
          issuer: 'https://acme.okta.com',
          clientId: 'portal',
          clientSecret: 'the-client-secret-1',
        });
        return {
          res,
          unchanged: async () => expect(await t.db.getRepository(SsoConnection).existsBy({ name })).toBe(false),
        };
      },
      status: 201,
    },
    {
      name: 'POST /api/domains (claiming a domain)',
      caller: () => ({ roleId: Role.SITE_ADMIN }),
      call: async (s) => {
        const domain = `claim-${uniq().toLowerCase()}.example`;
        const res = await request(t.http).post('/api/domains').set(s.auth).send({ domain });
        return {
          res,
          unchanged: async () => expect(await t.db.getRepository(OrganisationDomain).existsBy({ domain })).toBe(false),
        };
      },
      status: 201,
    },
    {
      name: 'POST /api/scim-tokens (a provisioning token)',
      caller: () => ({ roleId: Role.SITE_ADMIN }),
      call: async (s) => {
        const name = `Entra ${uniq()}`;
        const res = await request(t.http).post('/api/scim-tokens').set(s.auth).send({ name });
        return {
          res,
          unchanged: async () => expect(await t.db.getRepository(ScimToken).existsBy({ name })).toBe(false),
        };
      },
      status: 201,
    },
  ];

  describe.each(calls)('$name', ({ caller, where, call, status }) => {
    it('passes on a fresh sign-in; refused once it is older than STEP_UP_MINUTES, changing nothing; passes after a step-up; refused again after', async () => {
      const { user, s } = await signedIn(caller(), where?.() ?? org);
      expect((await call(s, user)).res.status).toBe(status);

      await ageSession(t, s, STALE);
      const refusal = await call(s, user);
      refused(refusal.res, 403, 'STEP_UP_REQUIRED');
      expect(refusal.res.body.message).toBe('Please confirm it is you to continue.');
      await refusal.unchanged?.();
      expect(await events('STEP_UP_REQUIRED', user.id)).toHaveLength(1);

      const proved = await stepUp(s, { password: PASSWORD }).expect(200);
      expect(proved.body).toEqual({ success: true, stepUpUntil: expect.any(String) });
      const until = Date.parse(proved.body.stepUpUntil) - Date.now();
      expect(until).toBeGreaterThan(59 * 60_000);
      expect(until).toBeLessThanOrEqual(60 * 60_000);
      expect((await call(s, user)).res.status).toBe(status);

      await ageSession(t, s, STALE);
      refused((await call(s, user)).res, 403, 'STEP_UP_REQUIRED');
    });
  });

  it('a role change that grants no privileged role needs no step-up', async () => {
    const { s } = await signedIn({ roleId: Role.SITE_ADMIN });
    await ageSession(t, s, STALE);
    const target = await createUser(t, org, { roleId: Role.ANALYST });
    await request(t.http)
      .put('/api/users/updateRole')
      .set(s.auth)
      .send({ userId: target.id, newUserRoleIds: [Role.VIEWER] })
      .expect(200);
    await request(t.http).get('/api/users').set(s.auth).expect(200);
  });

  it('a caller without the role hears 403 FORBIDDEN, not a request to step up', async () => {
    const { s } = await signedIn({ roleId: Role.VIEWER });
    await ageSession(t, s, STALE);
    refused(await request(t.http).get('/api/users/export').set(s.auth), 403, 'FORBIDDEN');
    refused(await request(t.http).get('/api/audit-events/export').set(s.auth), 403, 'FORBIDDEN');
  });

  describe('POST /auth/step-up', () => {
    it('is open to every role, signed in only', async () => {
      for (const role of ALL_ROLES) {
        const fields =
          role === Role.ADMINISTRATOR ? { roleId: Role.STANDARD_ADMIN, isAdministrator: true } : { roleId: role };
        const { s } = await signedIn(fields, role === Role.E_SUPPORT ? vendor : org);
        const res = await stepUp(s, { password: PASSWORD });
        expect([ROLE_CODES[role], res.status]).toEqual([ROLE_CODES[role], 200]);
      }
      refused(await request(t.http).post('/auth/step-up').send({ password: PASSWORD }), 401, 'UNAUTHENTICATED');
    }, 300_000);

    it('a wrong password is 401, audited and counted by the sign-in throttle; five lock this account and address', async () => {
      const { user, s } = await signedIn();
      await ageSession(t, s, STALE);
      const ip = from();
      for (let i = 0; i < 5; i++) {
        const wrong = await stepUp(s, { password: 'Not-The-Password-1' }, ip);
        refused(wrong, 401, 'INVALID_CREDENTIALS');
        expect(wrong.body.message).toBe(SECURITY_MESSAGES.STEP_UP_FAILED);
      }
      expect(await events('STEP_UP_FAILED', user.id)).toHaveLength(5);
      // Locked, even with the right password, from that address: as sign-in is.
      refused(await stepUp(s, { password: PASSWORD }, ip), 429, 'TOO_MANY_ATTEMPTS');
      refused(await request(t.http).get('/api/users/export').set(s.auth), 403, 'STEP_UP_REQUIRED');
      // The session was not marked by any of it.
      const session = await t.db.getRepository(Session).findOneByOrFail({ id: sessionIdOf(s) });
      expect(session.authenticatedAt!.getTime()).toBeLessThan(Date.now() - 60 * 60_000);
    });

    it('takes exactly one proof, validated like the login', async () => {
      const { s } = await signedIn();
      for (const body of [
        {},
        { password: PASSWORD, mfaToken: '123456' },
        { password: 'x'.repeat(51) },
        { mfaToken: '12' },
        { recoveryCode: 'not a code!' },
        { passkey: 'nope' },
        { password: PASSWORD, extra: 1 },
        { password: null },
      ])
        expect([body, (await stepUp(s, body)).status]).toEqual([body, 400]);
    });

    it('with a current authenticator code; the same code twice counts once', async () => {
      const secret = generateSecret();
      const { user, s } = await signedInWithMfa({ roleId: Role.SITE_ADMIN }, secret);
      await ageSession(t, s, STALE);
      const code = await totp(secret);
      await stepUp(s, { mfaToken: code }).expect(200);
      await request(t.http).get('/api/users/export').set(s.auth).expect(200);
      await ageSession(t, s, STALE);
      refused(await stepUp(s, { mfaToken: code }), 401, 'INVALID_MFA_TOKEN');
      refused(await request(t.http).get('/api/users/export').set(s.auth), 403, 'STEP_UP_REQUIRED');
      // Without MFA, no code is right.
      const plain = await signedIn();
      refused(await stepUp(plain.s, { mfaToken: await totp(secret) }), 401, 'INVALID_MFA_TOKEN');
      expect((await events('STEP_UP', user.id)).map((e) => e.summary)).toEqual([
        'Identity confirmed with an authenticator code',
      ]);
    });

    it('with a recovery code, which is used up; parallel step-ups with one code: exactly one passes', async () => {
      const secret = generateSecret();
      const { s } = await signedInWithMfa({ roleId: Role.SITE_ADMIN }, secret);
      const issued = await request(t.http)
        .post('/mfa/recovery-codes')
        .set(s.auth)
        .send({ token: await totp(secret) })
        .expect(200);
      const [first, second] = issued.body.codes as string[];
      await ageSession(t, s, STALE);
      await stepUp(s, { recoveryCode: first }).expect(200);
      await request(t.http).get('/api/audit-events/export').set(s.auth).expect(200);
      await ageSession(t, s, STALE);
      refused(await stepUp(s, { recoveryCode: first }), 401, 'INVALID_RECOVERY_CODE');

      const answers = await Promise.all(Array.from({ length: 5 }, () => stepUp(s, { recoveryCode: second })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
      const status = await request(t.http).get('/mfa/recovery-codes').set(s.auth).expect(200);
      expect(status.body.remaining).toBe(8);
    });

    it('parallel step-ups with the password all pass and leave one mark', async () => {
      const { user, s } = await signedIn({ roleId: Role.SITE_ADMIN });
      await ageSession(t, s, STALE);
      const answers = await Promise.all(Array.from({ length: 6 }, () => stepUp(s, { password: PASSWORD })));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await events('STEP_UP', user.id)).toHaveLength(6);
      await request(t.http).get('/api/users/export').set(s.auth).expect(200);
    });

    it("with one of the account's passkeys (a fresh challenge each time), not another account's", async () => {
      const { user, s } = await signedIn({ roleId: Role.SITE_ADMIN });
      const key = new SoftAuthenticator(ORIGIN);
      const options = await request(t.http).post('/mfa/passkeys/registration-options').set(s.auth).expect(200);
      await request(t.http)
        .post('/mfa/passkeys')
        .set(s.auth)
        .send({ name: 'Laptop', response: key.register(options.body).response })
        .expect(200);
      await ageSession(t, s, STALE);
      const challenge = await request(t.http).post('/auth/step-up/passkey-options').set(s.auth).expect(200);
      const assertion = key.assert(challenge.body);
      await stepUp(s, { passkey: assertion }).expect(200);
      await request(t.http).get('/api/users/export').set(s.auth).expect(200);
      // A replayed assertion: its challenge is used up.
      await ageSession(t, s, STALE);
      refused(await stepUp(s, { passkey: assertion }), 401, 'PASSKEY_INVALID');

      // Another account's passkey does not confirm this one.
      const other = await signedIn();
      const otherOptions = await request(t.http).post('/auth/step-up/passkey-options').set(other.s.auth);
      refused(otherOptions, 400, 'VALIDATION_FAILED');
      const mine = await request(t.http).post('/auth/step-up/passkey-options').set(s.auth).expect(200);
      refused(await stepUp(other.s, { passkey: key.assert(mine.body) }), 401, 'PASSKEY_INVALID');
      expect(await events('STEP_UP', user.id)).toHaveLength(1);
    });

    it("marks only the caller's own session: not another session of the same account", async () => {
      const user = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const here = await login(t, user.email);
      const elsewhere = await login(t, user.email);
      await ageSession(t, here, STALE);
      await ageSession(t, elsewhere, STALE);
      await stepUp(here, { password: PASSWORD }).expect(200);
      await request(t.http).get('/api/users/export').set(here.auth).expect(200);
      refused(await request(t.http).get('/api/users/export').set(elsewhere.auth), 403, 'STEP_UP_REQUIRED');
    });

    it("another organisation's site admin, stepped up, still cannot act on this organisation's accounts", async () => {
      const otherOrg = await createOrganisation(t);
      const { s } = await signedIn({ roleId: Role.SITE_ADMIN }, otherOrg);
      await stepUp(s, { password: PASSWORD }).expect(200);
      const target = await createUser(t, org, { totpSecret: generateSecret() });
      refused(
        await request(t.http).put('/api/mfa/disableUserMfa').set(s.auth).send({ userId: target.id }),
        404,
        'NOT_FOUND',
      );
      const exported = await request(t.http).get('/api/users/export').set(s.auth).expect(200);
      expect(exported.text).not.toContain(target.email);
      expect((await t.db.getRepository(User).findOneByOrFail({ id: target.id })).isMFAEnabled).toBe(true);
    });

    it('an ended session cannot step up', async () => {
      const { s } = await signedIn();
      await request(t.http).post('/auth/logout').set(s.auth).expect(200);
      refused(await stepUp(s, { password: PASSWORD }), 401, 'SESSION_ENDED');
    });

    it('the SSO step-up needs the deployment-wide provider', async () => {
      const { s } = await signedIn();
      refused(
        await request(t.http).post('/auth/step-up/sso').set(s.auth).send({ returnTo: '/users' }),
        400,
        'SSO_UNAVAILABLE',
      );
    });
  });
});

describe('STEP_UP_MINUTES by default (5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STEP_UP_MINUTES: '' });
  });
  afterAll(() => t.close());

  it('a sign-in 4 minutes ago counts, one 6 minutes ago does not; a step-up then counts for 5 minutes', async () => {
    const user = await createUser(t, await createOrganisation(t), { roleId: Role.SITE_ADMIN });
    const s = await login(t, user.email);
    await ageSession(t, s, 4);
    await request(t.http).get('/api/users/export').set(s.auth).expect(200);
    await ageSession(t, s, 6);
    refused(await request(t.http).get('/api/users/export').set(s.auth), 403, 'STEP_UP_REQUIRED');
    const proved = await request(t.http).post('/auth/step-up').set(s.auth).send({ password: PASSWORD }).expect(200);
    const until = Date.parse(proved.body.stepUpUntil) - Date.now();
    expect(until).toBeGreaterThan(4 * 60_000);
    expect(until).toBeLessThanOrEqual(5 * 60_000);
    await request(t.http).get('/api/users/export').set(s.auth).expect(200);
  });
});
