/** Passkeys: limits and API shapes shared by server and client. */

export const PASSKEY_LIMITS = {
  NAME_MAX: 50,
  /** Passkeys one account may register. */
  PER_USER_MAX: 20,
  CREDENTIAL_ID_MAX: 1400,
  CLIENT_DATA_MAX: 4096,
  BLOB_MAX: 16384,
  /** How long a WebAuthn challenge stays valid. */
  CHALLENGE_SECONDS: 5 * 60,
} as const;

/** One row of GET /mfa/passkeys. */
export interface PasskeyItem {
  id: number;
  name: string;
  /** ISO date-times. */
  createdAt: string;
  lastUsedAt: string | null;
  /** 'multiDevice' for a synced passkey, 'singleDevice' for one bound to its authenticator. */
  deviceType: string;
  backedUp: boolean;
}

export const PASSKEY_MESSAGES = {
  NOT_VERIFIED: 'The passkey could not be verified. Please try again.',
  CHALLENGE_INVALID: 'The passkey request has expired or was already used. Please try again.',
  NOT_REGISTERED: 'This passkey is not registered for an account here.',
  ANOTHER_ACCOUNT: 'This passkey belongs to another account.',
  ALREADY_REGISTERED: 'This passkey is already registered.',
  TOO_MANY: `You can register at most ${PASSKEY_LIMITS.PER_USER_MAX} passkeys. Remove one first.`,
  NOT_FOUND: 'Passkey not found.',
} as const;

export const PASSKEY_ERROR_CODES = {
  PASSKEY_INVALID: 'PASSKEY_INVALID',
  PASSKEY_CHALLENGE_INVALID: 'PASSKEY_CHALLENGE_INVALID',
} as const;
