import { EMAIL_PATTERN, LIMITS } from '@shared/limits';

/** The texts of spec 000 §5 and 001 §5 for sign-in, forced change and reset. */
export const MESSAGES = {
  EMAIL_INVALID: 'Entered email is not a valid email',
  EMAIL_TOO_LONG: 'Entered email must be less than or equal to 100 characters.',
  TERMS_REQUIRED: 'Please review and accept the terms and conditions.',
  PASSWORD_TOO_LONG: 'Entered password must be less than or equal to 50 characters.',
  MFA_REQUIRED: 'MFA is required.',
  MFA_SIX_DIGITS: 'MFA must contain exactly 6 digits',
  FIELDS_EMPTY: 'Input fields cannot be empty',
  NEW_PASSWORDS_MISMATCH: "New passwords don't match",
  NEW_PASSWORD_TOO_LONG: 'Password must be less than or equal to 50 characters.',
  RESET_TOKEN_MISSING: 'Cannot extract token. Please double check if your URL is correct.',
  RESET_MISMATCH: 'Your passwords do not match.',
} as const;

/** Login e-mail: trimmed, a standard pattern, at most 100 characters. Null when valid. */
export function validateLoginEmail(raw: string): string | null {
  const email = raw.trim();
  if (email.length > LIMITS.EMAIL_MAX) return MESSAGES.EMAIL_TOO_LONG;
  if (!EMAIL_PATTERN.test(email)) return MESSAGES.EMAIL_INVALID;
  return null;
}

export function validateLoginPassword(password: string): string | null {
  return password.length > LIMITS.PASSWORD_MAX ? MESSAGES.PASSWORD_TOO_LONG : null;
}

export function validateMfaCode(code: string): string | null {
  if (code.trim() === '') return MESSAGES.MFA_REQUIRED;
  if (!/^\d{6}$/.test(code.trim())) return MESSAGES.MFA_SIX_DIGITS;
  return null;
}

export function validateForcedChange(v: { currentPassword: string; newPassword: string; confirmPassword: string }): string | null {
  if (!v.currentPassword || !v.newPassword || !v.confirmPassword) return MESSAGES.FIELDS_EMPTY;
  if (v.newPassword !== v.confirmPassword) return MESSAGES.NEW_PASSWORDS_MISMATCH;
  if (v.newPassword.length > LIMITS.PASSWORD_MAX) return MESSAGES.NEW_PASSWORD_TOO_LONG;
  return null;
}

/** The reset page's token: a single string in the query. */
export function tokenFromQuery(search: URLSearchParams): string | null {
  const all = search.getAll('token');
  return all.length === 1 && all[0].trim() !== '' ? all[0] : null;
}
