import { LIMITS } from './limits';
import {
  isMfaCode,
  loginEmailError,
  loginPasswordError,
  maskMfaCode,
  mfaCodeError,
  newPasswordError,
  newUserEmailError,
  organisationCodeError,
  VALIDATION_MESSAGES as M,
} from './validation';

describe('shared validation rules', () => {
  it('words the limits exactly as the specification does', () => {
    expect(M.EMAIL_TOO_LONG).toBe('Entered email must be less than or equal to 100 characters.');
    expect(M.ORG_EMAIL_TOO_LONG).toBe('Email must be at most 100 characters');
    expect(M.PASSWORD_TOO_LONG).toBe('Entered password must be less than or equal to 50 characters.');
    expect(M.NEW_PASSWORD_TOO_LONG).toBe('Password must be less than or equal to 50 characters.');
    expect(M.NEW_PASSWORD_TOO_SHORT).toBe('Password must be at least 8 characters long.');
    expect(M.MFA_CODE_FORMAT).toBe('MFA must contain exactly 6 digits');
    expect(M.CODE_TOO_LONG).toBe('Code must be at most 25 characters');
    expect(M.SEARCH_TOO_LONG).toBe('searchText must be less than or equal to 100 characters.');
    expect(M.PAGE_SIZE_INVALID).toBe('pageSize must be 25, 50 or 100.');
    expect(M.GROUP_NAME_TOO_LONG).toBe('Group name must be less than or equal to 100 characters.');
  });

  it('checks e-mails at the limit and one past it', () => {
    const at = `${'a'.repeat(LIMITS.EMAIL_MAX - 12)}@example.com`;
    expect(at).toHaveLength(LIMITS.EMAIL_MAX);
    expect(loginEmailError(` ${at} `)).toBeNull();
    expect(loginEmailError(`a${at}`)).toBe(M.EMAIL_TOO_LONG);
    expect(loginEmailError('not-an-email')).toBe(M.EMAIL_INVALID);
    expect(newUserEmailError('')).toBe(M.NEW_USER_EMAIL_EMPTY);
    expect(newUserEmailError(`a${at}`)).toBe(M.EMAIL_TOO_LONG);
    expect(newUserEmailError('x@y')).toBe(M.EMAIL_INVALID);
    expect(newUserEmailError('x@y', () => true)).toBeNull();
  });

  it('checks passwords at both ends', () => {
    expect(loginPasswordError('x'.repeat(LIMITS.PASSWORD_MAX))).toBeNull();
    expect(loginPasswordError('x'.repeat(LIMITS.PASSWORD_MAX + 1))).toBe(M.PASSWORD_TOO_LONG);
    expect(newPasswordError('x'.repeat(LIMITS.PASSWORD_MIN - 1))).toBe(M.NEW_PASSWORD_TOO_SHORT);
    expect(newPasswordError('x'.repeat(LIMITS.PASSWORD_MIN))).toBeNull();
    expect(newPasswordError('x'.repeat(LIMITS.PASSWORD_MAX + 1))).toBe(M.NEW_PASSWORD_TOO_LONG);
  });

  it('takes the MFA code length from LIMITS', () => {
    // Digits counted from 1, as long as LIMITS says a code is; shorter, longer and with a letter.
    const digits = (n: number) => Array.from({ length: n }, (_, i) => String((i + 1) % 10)).join('');
    const code = digits(LIMITS.MFA_CODE_LENGTH);
    const short = digits(LIMITS.MFA_CODE_LENGTH - 1);
    expect(isMfaCode(code)).toBe(true);
    expect(isMfaCode(short)).toBe(false);
    expect(isMfaCode(digits(LIMITS.MFA_CODE_LENGTH + 1))).toBe(false);
    expect(isMfaCode(`${short}a`)).toBe(false);
    expect(mfaCodeError('  ')).toBe(M.MFA_REQUIRED);
    expect(mfaCodeError(` ${code} `)).toBeNull();
    expect(mfaCodeError(short)).toBe(M.MFA_CODE_FORMAT);
    // Only the digits are kept, up to the code's length.
    expect(maskMfaCode(`${code.slice(0, 1)}a${code.slice(1, 3)}-${code.slice(3)} ${digits(3)}`)).toBe(code);
  });

  it('limits the organisation code to 25 characters', () => {
    expect(organisationCodeError('C'.repeat(LIMITS.ORGANISATION_CODE_MAX))).toBeNull();
    expect(organisationCodeError('C'.repeat(LIMITS.ORGANISATION_CODE_MAX + 1))).toBe(M.CODE_TOO_LONG);
  });
});
