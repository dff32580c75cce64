/** Insights of an organisation and each member's own security page: the rules and API shapes server and client share. */

/** How a person signed in: the first factor (a password sign-in with a passkey or code as second factor is 'password'). */
export const SIGN_IN_METHODS = ['password', 'passkey', 'sso'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** Why a sign-in failed, as the insights count them; each code's label is what the page shows. */
export const SIGN_IN_FAILURE_REASONS = {
  WRONG_PASSWORD: 'Wrong e-mail or password',
  PASSWORD_BLOCKED: 'Password blocked until reset: its owner reported a sign-in as not theirs',
  WRONG_MFA_CODE: 'Wrong MFA code',
  WRONG_RECOVERY_CODE: 'Wrong or used recovery code',
  PASSKEY_NOT_VERIFIED: 'Passkey not verified',
  LOCKED: 'Refused while locked',
  SSO_REFUSED: 'Refused by single sign-on rules',
  SSO_REQUIRED: 'Sign-in refused: the organisation requires its single sign-on',
  IP_NOT_ALLOWED: "Address outside the organisation's allowed ranges",
} as const;
export type SignInFailureReason = keyof typeof SIGN_IN_FAILURE_REASONS;

/**
 * The factors a session was opened with, as its `method` records them: the first factor, then the second one a
 * password sign-in passed (`totp`, an e-mailed code, a recovery code, a passkey, or a device the account trusts after
 * passing one); `support`: an E-Support account acting as the member (docs/support-access.md). The OpenID provider's
 * `amr` and `acr` are derived from it.
 */
export const SESSION_METHODS = [
  'password',
  'password+totp',
  'password+email',
  'password+recovery',
  'password+passkey',
  'password+device',
  'passkey',
  'sso',
  'support',
] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

/** The second factor of a password sign-in, as a session's method names it. */
export type SecondFactorUsed = 'totp' | 'email' | 'recovery' | 'passkey' | 'device';

/** How a password sign-in's second factor reads after the first factor's name ("Password and passkey"). */
const SECOND_FACTOR_WORDING: Record<SecondFactorUsed, string> = {
  totp: 'and authenticator code',
  email: 'and e-mailed code',
  recovery: 'and recovery code',
  passkey: 'and passkey',
  device: 'on a trusted device',
};

/** Methods not named after their factors. */
const OTHER_METHOD_LABELS: Partial<Record<SessionMethod, string>> = {
  sso: 'Single sign-on',
  support: 'Support access (E-Support acting for you)',
};

/**
 * How each session method is shown to the person (My Security's sessions): its first factor's name (a password, a
 * passkey), then its second factor's wording; the others by OTHER_METHOD_LABELS.
 */
export const SESSION_METHOD_LABELS = Object.fromEntries(
  SESSION_METHODS.map((method) => {
    const [first, second] = method.split('+') as [string, SecondFactorUsed | undefined];
    const named = first[0].toUpperCase() + first.slice(1);
    return [method, OTHER_METHOD_LABELS[method] ?? (second ? `${named} ${SECOND_FACTOR_WORDING[second]}` : named)];
  }),
) as Record<SessionMethod, string>;

/** The method a session's recorded method counts as (a password sign-in with any second factor is 'password'). */
export function signInMethodOf(method: string): SignInMethod {
  if (method === 'sso') return 'sso';
  if (method === 'passkey') return 'passkey';
  return 'password';
}

/** The periods the insights page offers, in days. */
export const INSIGHTS_PERIODS = [7, 30, 90, 365] as const;
/** The longest period one request may ask for, in days (a leap year). */
export const INSIGHTS_MAX_DAYS = 366;
/** Days of the small trend of each organisation on the E-Support overview. */
export const GLANCE_TREND_DAYS = 30;
/** The number of recent sign-ins the security page lists. */
export const MY_SIGN_INS_LIMIT = 50;
/** At most one new-browser e-mail per account in this many minutes: a burst of sign-ins sends one. */
export const NEW_BROWSER_MAIL_INTERVAL_MINUTES = 15;
/** Hours the "This wasn't me" link of a new-browser e-mail works. */
export const NOT_ME_LINK_HOURS = 72;

export const INSIGHTS_MESSAGES = {
  BAD_PERIOD: `from and to must be dates (YYYY-MM-DD), from not after to, at most ${INSIGHTS_MAX_DAYS} days apart.`,
  ORGANISATION_NOT_FOUND: 'Organisation not found.',
  SESSION_NOT_FOUND: 'Session not found.',
  OTHERS_REQUIRED: 'Say others=true to end every session but this one, or name one session.',
  NOT_ME_INVALID: 'This link is not valid or has already been used.',
  NOT_ME_DONE:
    'Every session of your account has ended, and its password will not work again: choose a new one with the link on its way to you.',
} as const;

/** One day of sign-ins; byMethod counts the succeeded ones. */
export interface SignInDay {
  /** YYYY-MM-DD, a day in the insights' time zone. */
  date: string;
  succeeded: number;
  failed: number;
  byMethod: { password: number; passkey: number; sso: number };
}

/** One day of MFA adoption (the figures as last recorded that day, carried forward) and the peak of concurrent users. */
export interface InsightsTrendDay {
  date: string;
  mfaEnrolled: number | null;
  mfaTotal: number | null;
  peakConcurrent: number;
}

/** GET /api/insights */
export interface InsightsReport {
  from: string;
  to: string;
  timeZone: string;
  signIns: SignInDay[];
  /** Active accounts now (the seats used) against the organisation's allowed number. */
  activeUsers: number;
  allowedUsers: number;
  /** Active accounts with a second factor (an authenticator app or a passkey), now. */
  mfaAdoption: { enrolled: number; total: number };
  /** The most users signed in at once on any day of the period, against the organisation's maximum. */
  peakConcurrent: number;
  maxConcurrent: number;
  failureReasons: Array<{ code: SignInFailureReason; count: number }>;
  trend: InsightsTrendDay[];
}

/** A row of GET /api/insights/organisations. */
export interface OrganisationGlance {
  organisationId: number;
  name: string;
  activeUsers: number;
  allowedUsers: number;
  mfaAdoption: { enrolled: number; total: number };
  ssoEnabled: boolean;
  lastSignInAt: string | null;
  /** Succeeded sign-ins of each of the last GLANCE_TREND_DAYS days, oldest first. */
  signInTrend: number[];
}

/** A row of GET /api/me/sessions. */
export interface MySession {
  id: string;
  current: boolean;
  createdAt: string;
  lastUsedAt: string;
  ip: string | null;
  userAgent: string | null;
  method: string;
}

/** A row of GET /api/me/sign-ins. */
export interface MySignIn {
  at: string;
  outcome: 'succeeded' | 'failed';
  method: SignInMethod | null;
  ip: string | null;
  userAgent: string | null;
  newDevice: boolean;
}

/** DELETE /api/me/sessions */
export interface MySessionsEnded {
  success: true;
  ended: number;
}
