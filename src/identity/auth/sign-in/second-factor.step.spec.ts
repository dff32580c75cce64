import { randomInt } from 'node:crypto';
import { AppException } from '../../../platform/web/app.exception';
import { User } from '../../../platform/database/entities/user.entity';
import { ERROR_CODES } from '../../../shared/messages';
import { RECOVERY_MESSAGES } from '../../../shared/identity/mfa-recovery';
import { PASSKEY_ERROR_CODES, PASSKEY_MESSAGES } from '../../../shared/identity/passkeys';
import { LoginDto } from '../dto/login.dto';
import { SecondFactorStep } from './second-factor.step';
import { SignInAttempts } from './sign-in-attempts';
import { testPassword, testSecret } from '../../../../test/utils/secrets';

/**
 * The second-factor step of a password sign-in: a wrong factor of any kind counts once against the account and its
 * address and is audited once with its own reason; a right one, or a malformed request, counts nothing.
 */
/** Made for this run: no token or code is written in code. */
const CHALLENGE = testSecret('challenge');
const RECOVERY_CODE = testSecret('recovery');
/** A code in the authenticator's format, made per run (whether it is right is the test's stub's to say). */
const CODE = String(randomInt(1_000_000)).padStart(6, '0');

describe('SecondFactorStep', () => {
  const user = { id: 7, email: 'mfa@example.com', organisationId: 3, isMFAEnabled: true, hasPasskey: true } as User;
  const client = { ip: '10.0.0.9', userAgent: 'jest' };
  const challengeOf = (userId: number) => ({ given: true, userId: () => userId });
  const passkeyError = AppException.unauthorized(PASSKEY_MESSAGES.NOT_VERIFIED, PASSKEY_ERROR_CODES.PASSKEY_INVALID);

  let counted: Array<{ account: string; address: string }>;
  let audited: Array<{ type: string; signIn?: { method: string; reason: string } }>;
  let totpRight: boolean;
  let recoveryLeft: number | null;
  let passkeyRight: boolean;
  let checked: string[];
  let step: SecondFactorStep;

  beforeEach(() => {
    counted = [];
    audited = [];
    checked = [];
    totpRight = false;
    recoveryLeft = null;
    passkeyRight = false;
    const throttle = {
      recordFailure: async (account: string, address: string) => (
        counted.push({ account, address }),
        { failures: counted.length, alertOwner: false }
      ),
    };
    const audit = {
      manager: {},
      record: async (_tx: unknown, event: { type: string; signIn?: { method: string; reason: string } }) => {
        audited.push({ type: event.type, signIn: event.signIn });
      },
    };
    const attempts = new SignInAttempts(
      {} as never,
      {} as never,
      throttle as never,
      audit as never,
      {} as never,
      {} as never,
    );
    const mfa = { verifyLoginCode: async () => (checked.push('totp'), totpRight ? 'totp' : null) };
    const recoveryCodes = { consume: async () => (checked.push('recovery'), recoveryLeft) };
    const passkeys = {
      verifyAssertion: async () => (
        checked.push('passkey'),
        passkeyRight ? { ok: true, user } : { ok: false, user, error: passkeyError }
      ),
    };
    const tokens = { signChallenge: () => CHALLENGE };
    const trustedDevices = { recognise: async () => false, rememberDays: 30 };
    step = new SecondFactorStep(
      tokens as never,
      attempts,
      mfa as never,
      recoveryCodes as never,
      trustedDevices as never,
      passkeys as never,
    );
  });

  const pass = (factor: Partial<LoginDto>, challenge = challengeOf(user.id)) =>
    step.pass(
      user,
      { username: user.email, password: testPassword(), acceptToS: true, ...factor } as LoginDto,
      challenge,
      client,
    );
  const failure = async (factor: Partial<LoginDto>) => {
    const e = await pass(factor).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(AppException);
    return (e as AppException).getResponse() as { statusCode: number; code?: string; message: string };
  };
  const recordedOnce = (reason: string) => {
    expect(counted).toEqual([{ account: user.email, address: client.ip }]);
    expect(audited).toEqual([{ type: 'SIGN_IN_FAILED', signIn: { method: 'password', reason } }]);
  };

  it('a wrong MFA code (TOTP or e-mailed): 401 INVALID_MFA_TOKEN, counted and audited once as WRONG_MFA_CODE', async () => {
    const body = await failure({ mfaToken: CODE });
    expect(body).toMatchObject({ statusCode: 401, code: ERROR_CODES.INVALID_MFA_TOKEN });
    recordedOnce('WRONG_MFA_CODE');
    expect(checked).toEqual(['totp']);
  });

  it('a wrong or used recovery code: 401 INVALID_RECOVERY_CODE, counted and audited once as WRONG_RECOVERY_CODE', async () => {
    const body = await failure({ recoveryCode: RECOVERY_CODE });
    expect(body).toMatchObject({
      statusCode: 401,
      code: ERROR_CODES.INVALID_RECOVERY_CODE,
      message: RECOVERY_MESSAGES.INVALID_RECOVERY_CODE,
    });
    recordedOnce('WRONG_RECOVERY_CODE');
    expect(checked).toEqual(['recovery']);
  });

  it("a passkey that is not verified: the passkey's own refusal, counted and audited once as PASSKEY_NOT_VERIFIED", async () => {
    const e = await pass({ passkey: { id: 'x' } as never }).catch((err: unknown) => err);
    expect(e).toBe(passkeyError);
    recordedOnce('PASSKEY_NOT_VERIFIED');
    expect(checked).toEqual(['passkey']);
  });

  it('a right factor passes and counts nothing; a recovery code tells how many are left', async () => {
    totpRight = true;
    await expect(pass({ mfaToken: CODE, rememberDevice: true })).resolves.toMatchObject({
      rememberDevice: true,
      factor: 'totp',
    });
    recoveryLeft = 4;
    await expect(pass({ recoveryCode: RECOVERY_CODE })).resolves.toMatchObject({
      recoveryCodesLeft: 4,
      rememberDevice: false,
      factor: 'recovery',
    });
    passkeyRight = true;
    await expect(pass({ passkey: { id: 'x' } as never })).resolves.toMatchObject({
      rememberDevice: false,
      factor: 'passkey',
    });
    expect(checked).toEqual(['totp', 'recovery', 'passkey']);
    expect(counted).toEqual([]);
    expect(audited).toEqual([]);
  });

  it('two factors at once: 400 before any factor is checked, nothing counted', async () => {
    expect(await failure({ mfaToken: CODE, recoveryCode: RECOVERY_CODE })).toMatchObject({
      statusCode: 400,
      message: RECOVERY_MESSAGES.BOTH_FACTORS,
    });
    expect(await failure({ mfaToken: CODE, passkey: { id: 'x' } as never })).toMatchObject({ statusCode: 400 });
    expect(checked).toEqual([]);
    expect(counted).toEqual([]);
    expect(audited).toEqual([]);
  });

  it("another account's challenge token: 401 before any factor is checked, nothing counted", async () => {
    const e = await pass({ mfaToken: CODE }, challengeOf(user.id + 1)).catch((err: unknown) => err);
    expect((e as AppException).getStatus()).toBe(401);
    expect(checked).toEqual([]);
    expect(counted).toEqual([]);
  });

  it('no factor given: 401 TOTP_REQUIRED with a challenge token and the passkey offer, nothing counted', async () => {
    const body = (await failure({})) as unknown as Record<string, unknown>;
    expect(body).toMatchObject({
      statusCode: 401,
      code: ERROR_CODES.TOTP_REQUIRED,
      challengeToken: CHALLENGE,
      passkey: true,
    });
    expect(counted).toEqual([]);
  });
});
