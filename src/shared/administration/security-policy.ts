import { LIMITS } from '../limits';
import { DEFAULT_SUPPORT_ACCESS_POLICY, SUPPORT_ACCESS_POLICIES, SupportAccessPolicy } from '../portal/support-access';

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

/** What every field's definition may say: its API description, its name in the audit trail. */
interface FieldCommon {
  /** The API's description of the field. */
  description?: string;
  /** The name the audit trail records it under (the trail drops any field named like a secret, 'password…'). */
  auditName?: string;
  /** The session check applies it on every call (an organisation with none set costs that check no read). */
  sessionRule?: true;
}

/** A field of true or false. */
interface FlagField extends FieldCommon {
  kind: 'flag';
  default: boolean;
}

/** A list of address ranges (CIDR texts). */
interface RangesField extends FieldCommon {
  kind: 'ranges';
  default: readonly string[];
  maxItems: number;
  itemMaxLength: number;
  example: readonly string[];
}

/** A whole number from `min` to `max`; null (`nullable`) means no limit. */
interface WholeField<Nullable extends boolean = boolean> extends FieldCommon {
  kind: 'whole';
  nullable: Nullable;
  default: Nullable extends true ? null : number;
  min: number;
  max: number;
  /** What it counts, in its refusal ('a whole number of days'). */
  unit?: string;
  /** The row keeps null until the organisation chooses; until then the deployment's setting applies. */
  deploymentDefault?: true;
}

/** One of `choices`. */
interface ChoiceField<C extends string = string> extends FieldCommon {
  kind: 'choice';
  choices: readonly C[];
  default: C;
}

/** The definition a field of this value takes. */
type FieldFor<V> = [V] extends [boolean]
  ? FlagField
  : [V] extends [string[]]
    ? RangesField
    : null extends V
      ? WholeField<true>
      : [V] extends [number]
        ? WholeField<false>
        : [V] extends [string]
          ? ChoiceField<V>
          : never;

/**
 * The policy's fields described once: the API's validation and description, the organisation's row, the audit
 * trail and the session check read them here, and the compiler holds this list to SecurityPolicy both ways
 * (security-policy-fields.spec.ts holds the row's columns and the change request to it). In the order the API and the
 * audit trail list them.
 */
export const SECURITY_POLICY_FIELDS: { readonly [K in keyof SecurityPolicy]: FieldFor<SecurityPolicy[K]> } = {
  mfaRequired: {
    kind: 'flag',
    default: false,
    description: 'Members without a second factor enrol before anything else works.',
  },
  ssoRequired: {
    kind: 'flag',
    default: false,
    description: "Members on the organisation's verified domains sign in only through its provider.",
  },
  allowedIpRanges: {
    kind: 'ranges',
    default: [],
    maxItems: SECURITY_POLICY_LIMITS.IP_RANGES_MAX,
    itemMaxLength: SECURITY_POLICY_LIMITS.IP_RANGE_TEXT_MAX,
    example: ['203.0.113.0/24', '2001:db8::/32'],
    description: 'IPv4 and IPv6 CIDR ranges (a single address is its /32 or /128); empty allows every address.',
    sessionRule: true,
  },
  sessionIdleMinutes: {
    kind: 'whole',
    nullable: true,
    default: null,
    min: SECURITY_POLICY_LIMITS.IDLE_MINUTES_MIN,
    max: SECURITY_POLICY_LIMITS.IDLE_MINUTES_MAX,
    sessionRule: true,
  },
  sessionMaxHours: {
    kind: 'whole',
    nullable: true,
    default: null,
    min: SECURITY_POLICY_LIMITS.MAX_HOURS_MIN,
    max: SECURITY_POLICY_LIMITS.MAX_HOURS_MAX,
    sessionRule: true,
  },
  passwordMinLength: {
    kind: 'whole',
    nullable: false,
    default: LIMITS.PASSWORD_MIN,
    min: SECURITY_POLICY_LIMITS.PASSWORD_MIN_LENGTH_MIN,
    max: SECURITY_POLICY_LIMITS.PASSWORD_MIN_LENGTH_MAX,
    auditName: 'minimumLength',
  },
  selfDeletion: {
    kind: 'flag',
    default: false,
    description: 'Members may delete their own account (DELETE /api/me).',
  },
  auditRetentionDays: {
    kind: 'whole',
    nullable: false,
    default: 365,
    min: SECURITY_POLICY_LIMITS.AUDIT_RETENTION_DAYS_MIN,
    max: SECURITY_POLICY_LIMITS.AUDIT_RETENTION_DAYS_MAX,
    unit: 'days',
    deploymentDefault: true,
    description: "Days the organisation's audit events are kept; older ones are deleted daily.",
  },
  supportAccess: {
    kind: 'choice',
    choices: SUPPORT_ACCESS_POLICIES,
    default: DEFAULT_SUPPORT_ACCESS_POLICY,
    description: "Whether E-Support may act as a member: never, with a site admin's approval, or always.",
  },
};

/** The policy's field names, in SECURITY_POLICY_FIELDS' order. */
export const SECURITY_POLICY_FIELD_NAMES = Object.keys(SECURITY_POLICY_FIELDS) as Array<keyof SecurityPolicy>;

/** The policy of an organisation that never set one: every rule off, the product's own password minimum. */
export const DEFAULT_SECURITY_POLICY = Object.fromEntries(
  SECURITY_POLICY_FIELD_NAMES.map((name) => {
    const value = SECURITY_POLICY_FIELDS[name].default;
    return [name, Array.isArray(value) ? [...value] : value];
  }),
) as unknown as SecurityPolicy;

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
