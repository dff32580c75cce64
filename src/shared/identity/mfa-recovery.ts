/** Recovery codes and trusted devices; the server and the client import this file. */

/** How many recovery codes enrolment and "Regenerate recovery codes" hand out. */
export const RECOVERY_CODE_COUNT = 10;

/** A recovery code as shown: two groups of five from a 32-letter alphabet (50 bits), e.g. `7kq2m-xw9ad`. */
export const RECOVERY_CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** What a typed recovery code may look like (case, spaces and the hyphen do not matter). */
export const RECOVERY_CODE_INPUT = /^\s*[A-Za-z0-9]{5}[\s-]?[A-Za-z0-9]{5}\s*$/;

/** The default of MFA_REMEMBER_DAYS: how long "Don't ask again on this device" lasts. */
export const DEFAULT_MFA_REMEMBER_DAYS = 30;

export const RECOVERY_MESSAGES = {
  INVALID_RECOVERY_CODE: 'The recovery code is invalid or has already been used.',
  RECOVERY_CODE_FORMAT: 'A recovery code has ten letters and digits, e.g. 7kq2m-xw9ad.',
  BOTH_FACTORS: 'Send either an MFA token or a recovery code, not both.',
  DEVICE_NOT_FOUND: 'This device is not among your trusted devices.',
} as const;

/** The "Don't ask again on this device for N days" label. */
export const rememberDeviceLabel = (days: number) =>
  `Don't ask again on this device for ${days} day${days === 1 ? '' : 's'}`;

/** POST /mfa/verify: MFA is on, and the recovery codes are shown once. */
export interface MfaVerifyResponse {
  success: true;
  recoveryCodes: string[];
}

/** GET /mfa/recovery-codes: how many unused codes the caller has. */
export interface RecoveryCodesStatus {
  remaining: number;
}

/** POST /mfa/recovery-codes: a new set, the old ones no longer work. */
export interface RecoveryCodesResponse {
  codes: string[];
}

/** One row of GET /mfa/trusted-devices. */
export interface TrustedDeviceItem {
  id: number;
  /** Browser and system, from the User-Agent, e.g. "Chrome on Windows". */
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
}
