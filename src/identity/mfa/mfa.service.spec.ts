import { generateSecret } from 'otplib';
import { AuditEvent } from '../../platform/audit/entities/audit-event.entity';
import { ERROR_CODES } from '../../shared/messages';
import { SessionsService } from '../sessions/sessions.service';
import { User } from '../../platform/database/entities/user.entity';
import { createOrganisation, createUser, totp } from '../../../test/utils/factories';
import { lastMailTo } from '../../../test/utils/outbox';
import { refusalOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { MfaService } from './mfa.service';

describe.each(SERVICE_DATABASES)('MfaService on %s', (database) => {
  const t = serviceApp(database);
  const mfa = () => t().app.get(MfaService);
  const sessions = () => t().app.get(SessionsService);
  const reload = (user: User) => t().db.getRepository(User).findOneByOrFail({ id: user.id });
  const client = { ip: '203.0.113.7', userAgent: 'jest' };

  async function enrolled() {
    const secret = generateSecret();
    const org = await createOrganisation(t());
    return { secret, user: await createUser(t(), org, { totpSecret: secret }) };
  }

  it('a TOTP code works once: of parallel checks with one code exactly one passes, and it is refused after', async () => {
    const { secret, user } = await enrolled();
    const code = await totp(secret);
    const results = await Promise.all([...Array(4)].map(async () => mfa().verifyTotp(await reload(user), code)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await mfa().verifyTotp(await reload(user), code)).toBe(false);
    expect(await mfa().verifyTotp(await reload(user), 'abcdef')).toBe(false);
  });

  it('enrolment switches MFA on only with a code from the pending secret, ends every session and issues recovery codes', async () => {
    const org = await createOrganisation(t());
    const user = await createUser(t(), org);
    const { session } = await sessions().start(user, client);
    const { secret } = await mfa().startEnrolment(user.id);
    const wrong = (await totp(secret.base32)).replace(/\d/g, (d) => String((Number(d) + 5) % 10));
    expect(await refusalOf(mfa().completeEnrolment(user.id, wrong))).toEqual({
      status: 400,
      code: ERROR_CODES.INVALID_MFA_TOKEN,
    });
    expect((await reload(user)).isMFAEnabled).toBe(false);
    expect(await sessions().isActive(session.id)).toBe(true);

    const done = await mfa().completeEnrolment(user.id, await totp(secret.base32), client);
    expect(done.recoveryCodes.length).toBeGreaterThan(0);
    expect(new Set(done.recoveryCodes).size).toBe(done.recoveryCodes.length);
    expect(await reload(user)).toMatchObject({ isMFAEnabled: true, mfaPendingSecret: null });
    expect(await sessions().isActive(session.id)).toBe(false);
    expect(await t().db.getRepository(AuditEvent).countBy({ targetId: user.id, type: 'MFA_ENABLED' })).toBe(1);
    expect(await refusalOf(mfa().startEnrolment(user.id))).toMatchObject({ status: 409 });
  });

  it('switching MFA off takes a current code; it clears the secret and ends the sessions', async () => {
    const { secret, user } = await enrolled();
    const { session } = await sessions().start(user, client);
    // Not the current code: each digit moved on by five.
    const wrong = (await totp(secret)).replace(/\d/g, (d) => String((Number(d) + 5) % 10));
    expect(await refusalOf(mfa().disableOwn(user.id, wrong))).toEqual({
      status: 400,
      code: ERROR_CODES.INVALID_MFA_TOKEN,
    });
    expect((await reload(user)).isMFAEnabled).toBe(true);
    await mfa().disableOwn(user.id, await totp(secret), client);
    expect(await reload(user)).toMatchObject({ isMFAEnabled: false, mfaSecret: null });
    expect(await sessions().isActive(session.id)).toBe(false);
  });

  it('an e-mailed code signs in once; an account without MFA gets none', async () => {
    const { user } = await enrolled();
    await mfa().sendEmailCode(user.id, client);
    const code = (await lastMailTo(t().dataDir, user.email))?.text.match(/\b(\d{6})\b/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(await mfa().verifyLoginCode(await reload(user), code!)).toBe('email');
    expect(await mfa().verifyLoginCode(await reload(user), code!)).toBeNull();

    const plain = await createUser(t(), await createOrganisation(t()));
    expect(await refusalOf(mfa().sendEmailCode(plain.id))).toMatchObject({ status: 400 });
  });
});
