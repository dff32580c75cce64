import { LIMITS } from '../limits';
import { DEFAULT_SUPPORT_ACCESS_POLICY, SupportAccessPolicy } from '../portal/support-access';

/** An organisation's own security rules (GET/PUT /api/organisations/{id}/security-policy). */
export interface SecurityPolicy {
  /** Members without a second factor enrol (TOTP or passkey) before anything else works. */
  mfaRequired: boolean;
  /** Members whose e-mail is on a verified domain of the organisation sign in only through its provider. */
  ssoRequired: boolean;
  /** IPv4 and IPv6 CIDR ranges members may call from; empty allows every address. */
  allowedIpRanges: string[];
  /** A session unused this long ends; null: no idle limit. */
  sessionIdleMinutes: number | null;
  /** A session this old ends, whatever its use; null: no limit beyond the refresh token's. */
  sessionMaxHours: number | null;
  /** The shortest password accepted at the next password set. */
  passwordMinLength: number;
  /** Members may delete their own account (DELETE /api/me); off by default. */
  selfDeletion: boolean;
  /** Days the organisation's audit events are kept; the deployment's AUDIT_RETENTION_DAYS until set. */
  auditRetentionDays: number;
  /**
   * Whether E-Support may act as a member (docs/support-access.md): `never`, `approval` (a site admin approves each
   * request) or `always`. Only the organisation's own site admins change it.
   */
  supportAccess: SupportAccessPolicy;
}

export type SecurityPolicyChange = Partial<SecurityPolicy>;

/** The bounds of each rule. The longest minimum is the longest password the specification accepts. */
export const SECURITY_POLICY_LIMITS = {
  IDLE_MINUTES_MIN: 5,
  IDLE_MINUTES_MAX: 1440,
  MAX_HOURS_MIN: 1,
  MAX_HOURS_MAX: 720,
  PASSWORD_MIN_LENGTH_MIN: LIMITS.PASSWORD_MIN,
  PASSWORD_MIN_LENGTH_MAX: LIMITS.PASSWORD_MAX,
  /** How many ranges one policy holds. */
  IP_RANGES_MAX: 100,
  /** The shortest and longest audit retention an organisation may choose (30 days to 7 years). */
  AUDIT_RETENTION_DAYS_MIN: 30,
  AUDIT_RETENTION_DAYS_MAX: 2555,
  /** The longest range text accepted ('ffff:…/128' is 43 characters). */
  IP_RANGE_TEXT_MAX: 64,
} as const;

/** The policy of an organisation that never set one: every rule off, the product's own password minimum. */
export const DEFAULT_SECURITY_POLICY: SecurityPolicy = {
  mfaRequired: false,
  ssoRequired: false,
  allowedIpRanges: [],
  sessionIdleMinutes: null,
  sessionMaxHours: null,
  passwordMinLength: LIMITS.PASSWORD_MIN,
  selfDeletion: false,
  auditRetentionDays: 365,
  supportAccess: DEFAULT_SUPPORT_ACCESS_POLICY,
};

/** The texts of the policy's refusals and of its page. */
export const SECURITY_POLICY_MESSAGES = {
  IP_NOT_ALLOWED:
    "Your organisation does not allow sign-in from this network address. Contact your organisation's administrator.",
  POLICY_LOCKS_YOU_OUT:
    'These address ranges do not include the address you are using now, so saving them would lock you out. Add a range that includes it.',
  SSO_REQUIRED: 'Your organisation requires you to sign in through its single sign-on provider.',
  SSO_REQUIRED_NO_PROVIDER:
    "Your organisation requires single sign-on, but its provider is not set up yet. Contact your organisation's administrator.",
  RANGE_INVALID: (range: string) => `'${range}' is not an IPv4 or IPv6 address range (for example 203.0.113.0/24).`,
  SAVED: 'Security policy saved.',
  PASSWORD_TOO_SHORT: (min: number) => `Password must be at least ${min} characters long.`,
  SUPPORT_ACCESS_OWN_ONLY: "Only the organisation's own site admins decide whether support may act as its members.",
} as const;
