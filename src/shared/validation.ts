/**
 * Every input rule the server's DTOs (class-validator) and the client's forms (zod) both apply, with its message,
 * built from LIMITS. Plain data and functions, no library: each side wraps them in its own validator.
 * A `…Error` function answers the message of the first failed rule, or null when the value is valid.
 */
import { EMAIL_PATTERN, LIMITS } from './limits';

/** `<label> must be less than or equal to <max> characters.` (the wording of spec 000 §5). */
export function tooLongMessage(label: string, max: number): string {
  return `${label} must be less than or equal to ${max} characters.`;
}

/** `<label> must be at most <max> characters` (the wording of spec 001 §5, organisation administration). */
export function atMostMessage(label: string, max: number): string {
  return `${label} must be at most ${max} characters`;
}

/** The largest length of a person's or a group's name field (profile fields, user groups). */
export const NAME_MAX = 100;

/** Exactly LIMITS.MFA_CODE_LENGTH digits: a TOTP code, an e-mailed code, a recovery step's code. */
/** Text without a NUL character (no name or e-mail holds one; SQLite's text matching stops at it). */
export const NO_NUL_PATTERN = /^[^\0]*$/;

export const MFA_CODE_PATTERN = new RegExp(`^\\d{${LIMITS.MFA_CODE_LENGTH}}$`);

export const VALIDATION_MESSAGES = {
  // E-mail (sign-in, forgot password, new user, searches)
  EMAIL_INVALID: 'Entered email is not a valid email',
  EMAIL_TOO_LONG: tooLongMessage('Entered email', LIMITS.EMAIL_MAX),
  NEW_USER_EMAIL_EMPTY: 'User email must not be empty',
  SEARCH_TOO_LONG: tooLongMessage('searchText', LIMITS.EMAIL_MAX),
  /** SQLite's LIKE and FTS5 read a NUL as the end of the text (the search matched everything, or failed). */
  SEARCH_NUL: 'searchText must not contain a NUL character.',
  /** Organisation administration (spec 001 §5) words the same limit differently. */
  ORG_EMAIL_TOO_LONG: atMostMessage('Email', LIMITS.EMAIL_MAX),
  // Passwords
  PASSWORD_TOO_LONG: tooLongMessage('Entered password', LIMITS.PASSWORD_MAX),
  NEW_PASSWORD_TOO_LONG: tooLongMessage('Password', LIMITS.PASSWORD_MAX),
  NEW_PASSWORD_TOO_SHORT: `Password must be at least ${LIMITS.PASSWORD_MIN} characters long.`,
  FIELDS_EMPTY: 'Input fields cannot be empty',
  NEW_PASSWORDS_MISMATCH: "New passwords don't match",
  PASSWORDS_DIFFER: "Your passwords don't match",
  RESET_MISMATCH: 'Your passwords do not match.',
  RESET_TOKEN_MISSING: 'Cannot extract token. Please double check if your URL is correct.',
  // MFA codes
  MFA_REQUIRED: 'MFA is required.',
  MFA_CODE_FORMAT: `MFA must contain exactly ${LIMITS.MFA_CODE_LENGTH} digits`,
  // Organisation code (spec 001 §5, §9)
  CODE_TOO_LONG: atMostMessage('Code', LIMITS.ORGANISATION_CODE_MAX),
  // Names
  GROUP_NAME_EMPTY: 'Group name must not be empty',
  GROUP_NAME_TOO_LONG: tooLongMessage('Group name', NAME_MAX),
  // Lists
  PAGE_SIZE_INVALID: `pageSize must be ${LIMITS.PAGE_SIZES.slice(0, -1).join(', ')} or ${LIMITS.PAGE_SIZES[LIMITS.PAGE_SIZES.length - 1]}.`,
} as const;

const M = VALIDATION_MESSAGES;

/** A profile field (first name, last name, job title, department, location): at most NAME_MAX characters. */
export function profileFieldTooLong(label: string): string {
  return tooLongMessage(label, NAME_MAX);
}

export function isMfaCode(code: string): boolean {
  return MFA_CODE_PATTERN.test(code);
}

/** The input mask 999999: digits only, LIMITS.MFA_CODE_LENGTH at most. */
export function maskMfaCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, LIMITS.MFA_CODE_LENGTH);
}

/** Sign-in and forgot-password e-mail: trimmed, at most EMAIL_MAX, the standard pattern. */
export function loginEmailError(raw: string): string | null {
  const email = raw.trim();
  if (email.length > LIMITS.EMAIL_MAX) return M.EMAIL_TOO_LONG;
  if (!EMAIL_PATTERN.test(email)) return M.EMAIL_INVALID;
  return null;
}

/** The password typed at sign-in: only its length is checked before the server compares it. */
export function loginPasswordError(password: string): string | null {
  return password.length > LIMITS.PASSWORD_MAX ? M.PASSWORD_TOO_LONG : null;
}

/** A code typed in an MFA step: required, then exactly MFA_CODE_LENGTH digits. */
export function mfaCodeError(raw: string): string | null {
  const code = raw.trim();
  if (code === '') return M.MFA_REQUIRED;
  return isMfaCode(code) ? null : M.MFA_CODE_FORMAT;
}

/** Every new password, on every route that sets one. */
export function newPasswordError(password: string): string | null {
  if (password.length < LIMITS.PASSWORD_MIN) return M.NEW_PASSWORD_TOO_SHORT;
  if (password.length > LIMITS.PASSWORD_MAX) return M.NEW_PASSWORD_TOO_LONG;
  return null;
}

/** A new user's e-mail: one message per failure, in the order of spec 000 §5 (empty, too long, invalid). */
export function newUserEmailError(
  value: string,
  isEmail: (v: string) => boolean = (v) => EMAIL_PATTERN.test(v),
): string | null {
  if (value.length === 0) return M.NEW_USER_EMAIL_EMPTY;
  if (value.length > LIMITS.EMAIL_MAX) return M.EMAIL_TOO_LONG;
  return isEmail(value) ? null : M.EMAIL_INVALID;
}

/** An organisation code: at most ORGANISATION_CODE_MAX characters (emptiness has its own message per form). */
export function organisationCodeError(code: string): string | null {
  return code.length > LIMITS.ORGANISATION_CODE_MAX ? M.CODE_TOO_LONG : null;
}
