import { LIMITS } from '@shared/limits';
import { loginEmailError, loginPasswordError, mfaCodeError, VALIDATION_MESSAGES as V } from '@shared/validation';

/** The texts of spec 000 §5 and 001 §5 for sign-in, forced change and reset: the shared rules' own messages. */
export const MESSAGES = {
  EMAIL_INVALID: V.EMAIL_INVALID,
  EMAIL_TOO_LONG: V.EMAIL_TOO_LONG,
  TERMS_REQUIRED: 'Please review and accept the terms and conditions.',
  PASSWORD_TOO_LONG: V.PASSWORD_TOO_LONG,
  MFA_REQUIRED: V.MFA_REQUIRED,
  MFA_SIX_DIGITS: V.MFA_CODE_FORMAT,
  FIELDS_EMPTY: V.FIELDS_EMPTY,
  NEW_PASSWORDS_MISMATCH: V.NEW_PASSWORDS_MISMATCH,
  NEW_PASSWORD_TOO_LONG: V.NEW_PASSWORD_TOO_LONG,
  RESET_TOKEN_MISSING: V.RESET_TOKEN_MISSING,
  RESET_MISMATCH: V.RESET_MISMATCH,
} as const;

/** Login e-mail: trimmed, a standard pattern, at most 100 characters. Null when valid. */
export const validateLoginEmail = loginEmailError;
export const validateLoginPassword = loginPasswordError;
export const validateMfaCode = mfaCodeError;

export function validateForcedChange(v: {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}): string | null {
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
