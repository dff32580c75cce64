/** Limits the specification fixes (000 §9, 001 §9); forms and DTOs both read them from here. */
export const LIMITS = {
  /** The largest id of a stored row (PostgreSQL `integer`); a larger one names nothing and is refused as input. */
  ID_MAX: 2_147_483_647,
  EMAIL_MAX: 100,
  PASSWORD_MAX: 50,
  /** Not fixed by the specification: the minimum a mature product asks of a new password. */
  PASSWORD_MIN: 8,
  MFA_CODE_LENGTH: 6,
  ORGANISATION_CODE_MAX: 25,
  LOGO_MAX_BYTES: 10 * 1024 * 1024,
  PASSWORD_CONFIRM_DEBOUNCE_MS: 100,
  PAGE_SIZES: [25, 50, 100] as const,
  /** The last page a list query may ask for: a million pages of the largest size is past any organisation's rows. */
  PAGE_MAX: 1_000_000,
  DEFAULT_PAGE_SIZE: 50,
  RESET_ERROR_TOAST_MS: 10_000,
} as const;

/** Lifetimes (docs/product-rules.md §3 and the issues). */
export const LIFETIMES = {
  ACCESS_TOKEN_SECONDS: 15 * 60,
  CHALLENGE_TOKEN_SECONDS: 5 * 60,
  REFRESH_TOKEN_SECONDS: 12 * 60 * 60,
  /** A rotated refresh token presented again within this window is a concurrent tab, not theft. */
  REFRESH_REUSE_GRACE_SECONDS: 10,
  RESET_TOKEN_SECONDS: 60 * 60,
  EMAIL_MFA_CODE_SECONDS: 10 * 60,
} as const;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
