import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  tokenFromQuery,
  validateForcedChange,
  validateLoginEmail,
  validateLoginPassword,
  validateMfaCode,
} from './login-validation';

describe('sign-in validation (spec 000 §5)', () => {
  it('checks the e-mail pattern and length, after trimming', () => {
    expect(validateLoginEmail('jane@example.com')).toBeNull();
    expect(validateLoginEmail('  jane@example.com  ')).toBeNull();
    expect(validateLoginEmail('jane@')).toBe('Entered email is not a valid email');
    expect(validateLoginEmail('jane example@x.com')).toBe('Entered email is not a valid email');
    expect(validateLoginEmail(`${'a'.repeat(88)}@example.com`)).toBeNull(); // exactly 100
    expect(validateLoginEmail(`${'a'.repeat(89)}@example.com`)).toBe(
      'Entered email must be less than or equal to 100 characters.',
    );
  });

  it('limits the password to 50 characters', () => {
    expect(validateLoginPassword('x'.repeat(50))).toBeNull();
    expect(validateLoginPassword('x'.repeat(51))).toBe('Entered password must be less than or equal to 50 characters.');
  });

  it('requires exactly six digits of MFA code', () => {
    expect(validateMfaCode('')).toBe('MFA is required.');
    expect(validateMfaCode('12345')).toBe('MFA must contain exactly 6 digits');
    expect(validateMfaCode('12345a')).toBe('MFA must contain exactly 6 digits');
    expect(validateMfaCode('1234567')).toBe('MFA must contain exactly 6 digits');
    expect(validateMfaCode('123456')).toBeNull();
  });

  it('checks the forced password change in the order of the specification', () => {
    expect(validateForcedChange({ currentPassword: '', newPassword: 'a', confirmPassword: 'a' })).toBe(
      'Input fields cannot be empty',
    );
    expect(validateForcedChange({ currentPassword: 'x', newPassword: 'a', confirmPassword: '' })).toBe(
      'Input fields cannot be empty',
    );
    expect(validateForcedChange({ currentPassword: 'x', newPassword: 'a', confirmPassword: 'b' })).toBe(
      "New passwords don't match",
    );
    const long = 'y'.repeat(51);
    expect(validateForcedChange({ currentPassword: 'x', newPassword: long, confirmPassword: long })).toBe(
      'Password must be less than or equal to 50 characters.',
    );
    expect(
      validateForcedChange({ currentPassword: 'x', newPassword: 'Good-One-1', confirmPassword: 'Good-One-1' }),
    ).toBeNull();
  });

  it('takes the reset token only as one string in the query', () => {
    expect(tokenFromQuery(new URLSearchParams('token=abc'))).toBe('abc');
    expect(tokenFromQuery(new URLSearchParams(''))).toBeNull();
    expect(tokenFromQuery(new URLSearchParams('token='))).toBeNull();
    expect(tokenFromQuery(new URLSearchParams('token=a&token=b'))).toBeNull();
    expect(MESSAGES.RESET_TOKEN_MISSING).toBe('Cannot extract token. Please double check if your URL is correct.');
  });
});
