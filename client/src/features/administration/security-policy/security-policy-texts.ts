import { PRIVACY_LIMITS } from '@shared/administration/privacy';
import { SECURITY_POLICY_LIMITS as L } from '@shared/administration/security-policy';

/** What the Security Policy page tells people. */
export const POLICY_TEXTS = {
  TITLE: 'Security Policy',
  INTRO:
    'Rules for everyone in your organisation. They apply on their next call, on every server at once. E-Support accounts are not bound by them.',
  ORGANISATION: 'Organisation',
  OWN_ORGANISATION: 'My organisation',
  READ_ONLY: 'You can see these rules; a site admin of your organisation can change them.',
  LOAD_FAILED: 'The security policy could not be loaded.',
  RULES: 'The rules',
  SAVE: 'Save policy',
  SAVED: 'Security policy saved.',
  SAVE_FAILED: 'The security policy could not be saved.',
  NOTHING_CHANGED: 'Nothing has changed.',
  MFA_LABEL: 'Require a second factor',
  MFA_HELP:
    'Everyone without an authenticator app or a passkey must set one up at their next sign-in before they can do anything else.',
  SSO_LABEL: 'Require single sign-on',
  SSO_HELP:
    'People whose e-mail is on one of your verified domains must sign in through your identity provider; their password no longer works. You keep your password, so you cannot lock yourself out.',
  RANGES_LABEL: 'Allowed network addresses',
  RANGES_HELP:
    'One IPv4 or IPv6 range per line (for example 203.0.113.0/24 or 2001:db8::/32). Sign-in and every call from any other address is refused. Leave empty to allow every address. The address you are using now must be included.',
  IDLE_LABEL: 'End sessions idle for (minutes)',
  IDLE_HELP: `A session nobody has used for this long ends. ${L.IDLE_MINUTES_MIN} to ${L.IDLE_MINUTES_MAX}; empty for no limit.`,
  MAX_LABEL: 'End every session after (hours)',
  MAX_HELP: `A session this old ends, however much it is used. ${L.MAX_HOURS_MIN} to ${L.MAX_HOURS_MAX}; empty for no limit.`,
  LENGTH_LABEL: 'Minimum password length',
  LENGTH_HELP: `Applies the next time each person sets a password. ${L.PASSWORD_MIN_LENGTH_MIN} to ${L.PASSWORD_MIN_LENGTH_MAX} characters.`,
  SELF_DELETION_LABEL: 'Members may delete their own account',
  SELF_DELETION_HELP:
    'Each member can delete their own account from My Security after confirming it is them. The account is erased: the audit log keeps its events, naming the person "Erased user". The last active site admin and accounts your directory manages cannot.',
  RETENTION_LABEL: 'Days to keep audit events',
  RETENTION_HELP: `Older events are deleted every day. ${L.AUDIT_RETENTION_DAYS_MIN} to ${L.AUDIT_RETENTION_DAYS_MAX} days (7 years). Sign-in history is kept ${PRIVACY_LIMITS.SIGN_IN_HISTORY_DAYS} days.`,
  wholeNumber: (min: number, max: number, optional: boolean) =>
    `Enter a whole number from ${min} to ${max}${optional ? ', or leave it empty' : ''}.`,
  TOO_MANY_RANGES: `At most ${L.IP_RANGES_MAX} ranges.`,
  SUPPORT_ACCESS_LABEL: 'Support access',
  SUPPORT_ACCESS_CHOICES: {
    never: 'Never: support may not act as our members',
    approval: 'With approval: a site admin approves each request',
    always: 'Always: support may act as a member at once',
  },
  SUPPORT_ACCESS_HELP:
    'Whether E-Support may act as one of your members for up to 60 minutes to see what they see. Every session is in the audit log, the member is e-mailed when it ends, and passwords, second factors, integrations and this policy stay out of reach.',
  SUPPORT_ACCESS_OWN_ONLY: "Only the organisation's own site admins decide this.",
} as const;
