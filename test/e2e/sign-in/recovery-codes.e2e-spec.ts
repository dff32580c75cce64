import { generateSecret } from 'otplib';
import request from 'supertest';
import { IsNull } from 'typeorm';
import { RecoveryCode } from '../../../src/identity/mfa/entities/recovery-code.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Role } from '../../../src/shared/roles';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { createOrganisation, createUser, fromResponse, login, PASSWORD, totp } from '../../utils/factories';
import { expectErrorBody } from '../../utils/error-body';
import { readOutbox } from '../../utils/outbox';
import { createRoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

const CODE_SHAPE = /^[a-km-np-z2-9]{5}-[a-km-np-z2-9]{5}$/;

/** Recovery codes (docs/product-rules.md §3: POST /auth/login with recoveryCode, POST /mfa/recovery-codes). */
describe('MFA recovery codes', () => {
  let t: TestApp;
  let org: Organisation;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t);
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  const challenge = async (email: string) => {
    const first = await http()
      .post('/auth/login')
      .send({ username: email, password: PASSWORD, acceptToS: true })
      .expect(401);
    expect(first.body.code).toBe('TOTP_REQUIRED');
    return first.body.challengeToken as string;
  };
  const withRecoveryCode = (email: string, challengeToken: string, recoveryCode: string) =>
    http()
      .post('/auth/login')
      .set('Authorization', `Bearer ${challengeToken}`)
      .send({ username: email, password: PASSWORD, acceptToS: true, recoveryCode });

  /** A user who enrolled through the API, with the codes the enrolment showed. */
  async function enrolled() {
    const u = await createUser(t, org);
    const s = await login(t, u.email);
    const { base32 } = (await http().post('/mfa/enable').set(s.auth).expect(200)).body.secret;
    const verify = await http()
      .post('/mfa/verify')
      .set(s.auth)
      .send({ token: await totp(base32) })
      .expect(200);
    return { user: u, secret: base32 as string, codes: verify.body.recoveryCodes as string[], verify };
  }

  it('enabling TOTP answers success with ten distinct codes, stored only as keyed hashes', async () => {
    const { user, codes, verify } = await enrolled();
    expect(verify.body.success).toBe(true);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(CODE_SHAPE);
    const rows = await t.db.getRepository(RecoveryCode).findBy({ userId: user.id });
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows);
    for (const c of codes) {
      expect(stored).not.toContain(c);
      expect(stored).not.toContain(c.replace('-', ''));
    }
    const s = fromResponse(await withRecoveryCode(user.email, await challenge(user.email), codes[0]).expect(200));
    await http().get('/mfa/recovery-codes').set(s.auth).expect(200, { remaining: 9 });
  });

  it('signs in with a recovery code once: the answer says how many are left, the owner is e-mailed, the use is audited; reuse is refused', async () => {
    const { user, codes } = await enrolled();
    const ok = await withRecoveryCode(user.email, await challenge(user.email), codes[3]).expect(200);
    expect(ok.body).toEqual({ success: true, accessToken: expect.any(String), recoveryCodesLeft: 9 });
    await http().get('/api/users/current').set(fromResponse(ok).auth).expect(200);

    // The sign-in also comes from a browser new to the account (no browser cookie), which is e-mailed apart.
    const mail = (await readOutbox(t.dataDir))
      .filter((m) => m.to.includes(user.email) && /recovery code was used/.test(m.subject))
      .pop();
    expect(mail?.subject).toMatch(/recovery code was used/);
    expect(mail?.text).toMatch(/You have 9 recovery codes left/);
    expect(mail?.text).not.toContain(codes[3]);
    const events = await t.db.getRepository(AuditEvent).findBy({ type: 'RECOVERY_CODE_USED', targetId: user.id });
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain(codes[3]);

    const reused = await withRecoveryCode(user.email, await challenge(user.email), codes[3]).expect(401);
    expectErrorBody(reused, 401);
    expect(reused.body.code).toBe('INVALID_RECOVERY_CODE');
    // Case, spaces and the hyphen do not matter.
    const typed = codes[4].toUpperCase().replace('-', ' ');
    const again = await withRecoveryCode(user.email, await challenge(user.email), typed).expect(200);
    expect(again.body.recoveryCodesLeft).toBe(8);
  });

  it('two simultaneous sign-ins with the same code: exactly one wins', async () => {
    const { user, codes } = await enrolled();
    const tokens = await Promise.all([
      challenge(user.email),
      challenge(user.email),
      challenge(user.email),
      challenge(user.email),
    ]);
    const results = await Promise.all(tokens.map((c) => withRecoveryCode(user.email, c, codes[0])));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401]);
    const used = (await t.db.getRepository(RecoveryCode).findBy({ userId: user.id })).filter((r) => r.usedAt !== null);
    expect(used).toHaveLength(1);
  });

  it("another account's code, a code without a challenge token, a malformed code or both factors at once: refused, nothing consumed", async () => {
    const a = await enrolled();
    const b = await enrolled();
    const foreign = await withRecoveryCode(a.user.email, await challenge(a.user.email), b.codes[0]).expect(401);
    expect(foreign.body.code).toBe('INVALID_RECOVERY_CODE');

    const noChallenge = await http()
      .post('/auth/login')
      .send({ username: b.user.email, password: PASSWORD, acceptToS: true, recoveryCode: b.codes[0] })
      .expect(401);
    expectErrorBody(noChallenge, 401);
    // A's challenge token does not open B's account.
    await withRecoveryCode(b.user.email, await challenge(a.user.email), b.codes[0]).expect(401);

    const malformed = await withRecoveryCode(b.user.email, await challenge(b.user.email), 'abc').expect(400);
    expectErrorBody(malformed, 400);
    const both = await http()
      .post('/auth/login')
      .set('Authorization', `Bearer ${await challenge(b.user.email)}`)
      .send({
        username: b.user.email,
        password: PASSWORD,
        acceptToS: true,
        recoveryCode: b.codes[0],
        mfaToken: await totp(b.secret),
      })
      .expect(400);
    expectErrorBody(both, 400);

    // B's code still works for B.
    const ok = await withRecoveryCode(b.user.email, await challenge(b.user.email), b.codes[0]).expect(200);
    expect(ok.body.recoveryCodesLeft).toBe(9);
    // A wrong password with a right code is still a wrong password.
    await http()
      .post('/auth/login')
      .set('Authorization', `Bearer ${await challenge(b.user.email)}`)
      .send({ username: b.user.email, password: 'Wrong-Password-9', acceptToS: true, recoveryCode: b.codes[1] })
      .expect(401);
    expect(await t.db.getRepository(RecoveryCode).countBy({ userId: b.user.id, usedAt: IsNull() })).toBe(9);
  });

  it('"Regenerate recovery codes" needs a current TOTP, answers ten new codes and invalidates the old ones', async () => {
    const { user, secret, codes } = await enrolled();
    const s = fromResponse(await withRecoveryCode(user.email, await challenge(user.email), codes[0]).expect(200));
    await http().post('/mfa/recovery-codes').set(s.auth).send({}).expect(400);
    const wrong = await http()
      .post('/mfa/recovery-codes')
      .set(s.auth)
      .send({ token: (await totp(secret)) === '123456' ? '654321' : '123456' })
      .expect(400);
    expect(wrong.body.code).toBe('INVALID_MFA_TOKEN');
    // The enrolment used this time step's code: the next step's code, as an app shows it 30 s later.
    const fresh = await http()
      .post('/mfa/recovery-codes')
      .set(s.auth)
      .send({ token: await totp(secret, Date.now() / 1000 + 30) })
      .expect(200);
    expect(Object.keys(fresh.body)).toEqual(['codes']);
    expect(fresh.body.codes).toHaveLength(10);
    for (const c of fresh.body.codes) expect(c).toMatch(CODE_SHAPE);
    await http().get('/mfa/recovery-codes').set(s.auth).expect(200, { remaining: 10 });
    // The session that asked stays open; the old codes are dead, the new ones work.
    await withRecoveryCode(user.email, await challenge(user.email), codes[1]).expect(401);
    const ok = await withRecoveryCode(user.email, await challenge(user.email), fresh.body.codes[9]).expect(200);
    expect(ok.body.recoveryCodesLeft).toBe(9);
    expect(
      await t.db.getRepository(AuditEvent).countBy({ type: 'RECOVERY_CODES_REGENERATED', targetId: user.id }),
    ).toBe(1);
  });

  it('switching MFA off (self or "Disable User MFA") removes the codes', async () => {
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const adminSession = await login(t, admin.email);
    const self = await enrolled();
    const s = fromResponse(
      await withRecoveryCode(self.user.email, await challenge(self.user.email), self.codes[0]).expect(200),
    );
    await http()
      .post('/mfa/disable')
      .set(s.auth)
      .send({ token: await totp(self.secret, Date.now() / 1000 + 30) })
      .expect(200);
    expect(await t.db.getRepository(RecoveryCode).countBy({ userId: self.user.id })).toBe(0);

    const other = await enrolled();
    await http().put('/api/mfa/disableUserMfa').set(adminSession.auth).send({ userId: other.user.id }).expect(200);
    expect(await t.db.getRepository(RecoveryCode).countBy({ userId: other.user.id })).toBe(0);
    // Without MFA the password alone signs in; a recovery code is not asked for and regenerating is refused.
    const plain = await login(t, other.user.email);
    await http().get('/mfa/recovery-codes').set(plain.auth).expect(200, { remaining: 0 });
    await http().post('/mfa/recovery-codes').set(plain.auth).send({ token: '123456' }).expect(400);
  });

  it('every role reads its own count and may regenerate only with MFA on; without a session, 401', async () => {
    const m = await createRoleMatrix(t);
    for (const actor of [...Object.values(m.byRole), m.otherOrgAdmin]) {
      await http().get('/mfa/recovery-codes').set(actor.session.auth).expect(200, { remaining: 0 });
      const r = await http().post('/mfa/recovery-codes').set(actor.session.auth).send({ token: '123456' }).expect(400);
      expectErrorBody(r, 400);
    }
    expectErrorBody(await http().get('/mfa/recovery-codes').expect(401), 401);
    expectErrorBody(await http().post('/mfa/recovery-codes').send({ token: '123456' }).expect(401), 401);
  });

  it('regenerating is rate limited (5 a minute): of 8 parallel attempts, 3 are refused with 429', async () => {
    const secret = generateSecret();
    const u = await createUser(t, org, { totpSecret: secret });
    const c = await challenge(u.email);
    const s = fromResponse(
      await http()
        .post('/auth/login')
        .set('Authorization', `Bearer ${c}`)
        .send({ username: u.email, password: PASSWORD, acceptToS: true, mfaToken: await totp(secret) })
        .expect(200),
    );
    const results = await Promise.all(
      Array.from({ length: 8 }, () => http().post('/mfa/recovery-codes').set(s.auth).send({ token: '000000' })),
    );
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(3);
    expectErrorBody(limited[0], 429);
  });
});
