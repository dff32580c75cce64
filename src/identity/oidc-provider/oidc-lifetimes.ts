/** The provider's lifetimes (docs/oidc-provider.md), in seconds. */
export const OIDC_LIFETIMES = {
  AUTHORIZATION_CODE_SECONDS: 60,
  ACCESS_TOKEN_SECONDS: 15 * 60,
  ID_TOKEN_SECONDS: 15 * 60,
  /** A refresh token unused this long expires, unless the organisation's sessionIdleMinutes says otherwise. */
  REFRESH_IDLE_SECONDS: 8 * 60 * 60,
  /** No refresh token outlives this, counted from the sign-in, unless the organisation's sessionMaxHours says otherwise. */
  REFRESH_MAX_SECONDS: 30 * 24 * 60 * 60,
  /** The sign-in interaction (the login card, the consent screen). */
  INTERACTION_SECONDS: 60 * 60,
  /** The provider's browser session; it never outlives the portal session it was opened from. */
  SESSION_SECONDS: 30 * 24 * 60 * 60,
  /** A retired signing key stays published this long: longer than any token it signed lives, clock skew included. */
  RETIRED_KEY_KEPT_SECONDS: 15 * 60 + 60 + 15 * 60,
  /** The clock tolerance the provider allows. */
  CLOCK_TOLERANCE_SECONDS: 15,
} as const;
