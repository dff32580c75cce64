/** The audit trail: event types, their labels, and the API shapes; server and client import this file. */

export const AUDIT_EVENT_TYPES = {
  SIGN_IN_SUCCEEDED: 'Sign-in succeeded',
  SIGN_IN_FAILED: 'Sign-in failed',
  SIGN_IN_LOCKED: 'Sign-in refused (locked)',
  SSO_SIGN_IN: 'SSO sign-in',
  LOGOUT: 'Logout',
  NOT_ME_REPORTED: "Sign-in reported as not the owner's",
  FORCE_LOGOFF: 'Force log-off',
  SESSION_EXPIRED: 'Session ended by the security policy',
  PASSWORD_CHANGED: 'Password changed',
  PASSWORD_RESET_REQUESTED: 'Password reset requested',
  PASSWORD_RESET: 'Password reset',
  MFA_ENABLED: 'MFA enabled',
  MFA_DISABLED: 'MFA disabled',
  MFA_DISABLED_BY_ADMIN: 'MFA disabled by an administrator',
  MFA_ENFORCEMENT_CHANGED: 'MFA enforcement changed',
  MFA_CODE_SENT: 'Sign-in code e-mailed',
  RECOVERY_CODE_USED: 'Recovery code used',
  RECOVERY_CODES_REGENERATED: 'Recovery codes regenerated',
  TRUSTED_DEVICE_ADDED: 'Trusted device added',
  TRUSTED_DEVICE_REVOKED: 'Trusted device revoked',
  PASSKEY_ADDED: 'Passkey added',
  PASSKEY_REMOVED: 'Passkey removed',
  USER_CREATED: 'User created',
  ROLE_CHANGED: 'Role changed',
  ACCESS_CHANGED: 'Access changed',
  SSO_CHANGED: 'SSO changed',
  ORGANISATION_CREATED: 'Organisation created',
  ESUPPORT_CREATED: 'E-Support account created',
  BILLING_CONTACT_SAVED: 'Billing contact saved',
  LOGO_SAVED: 'Logo saved',
  ANNOUNCEMENT_PUBLISHED: 'Announcement published',
  SSO_CONNECTION_CREATED: 'SSO connection added',
  SSO_CONNECTION_CHANGED: 'SSO connection changed',
  SSO_CONNECTION_REMOVED: 'SSO connection removed',
  SSO_CONNECTION_TESTED: 'SSO connection tested',
  SSO_SIGN_IN_REFUSED: 'SSO sign-in refused',
  SSO_LOGOUT: 'Signed out by the identity provider',
  DOMAIN_CLAIMED: 'Domain added',
  DOMAIN_VERIFIED: 'Domain verified',
  DOMAIN_REMOVED: 'Domain removed',
  DOMAIN_RECORD_MISSING: 'Domain record missing',
  DOMAIN_UNVERIFIED: 'Domain no longer verified',
  STEP_UP: 'Identity confirmed',
  STEP_UP_FAILED: 'Identity confirmation failed',
  STEP_UP_REQUIRED: 'Sensitive action refused until identity confirmed',
  // Directory provisioning (SCIM)
  SCIM_TOKEN_CREATED: 'Provisioning token created',
  SCIM_TOKEN_USED: 'Provisioning token used',
  SCIM_TOKEN_REVOKED: 'Provisioning token revoked',
  // Organisation API keys
  API_KEY_CREATED: 'API key created',
  API_KEY_REVOKED: 'API key revoked',
  PROFILE_CHANGED: 'Profile changed',
  USER_DELETED: 'User deleted',
  USER_ERASED: 'User erased',
  MY_DATA_EXPORTED: 'Personal data downloaded',
  GROUP_CREATED: 'User group created',
  GROUP_CHANGED: 'User group changed',
  GROUP_DELETED: 'User group deleted',
  INVITATION_CREATED: 'Invitation sent',
  INVITATION_RESENT: 'Invitation resent',
  INVITATION_ACCEPTED: 'Invitation accepted',
  INVITATION_REVOKED: 'Invitation withdrawn',
  // Webhooks and audit log streams
  WEBHOOK_CREATED: 'Webhook endpoint added',
  WEBHOOK_CHANGED: 'Webhook endpoint changed',
  WEBHOOK_REMOVED: 'Webhook endpoint removed',
  WEBHOOK_SECRET_ROTATED: 'Webhook signing secret rotated',
  WEBHOOK_DISABLED: 'Webhook endpoint disabled after failures',
  LOG_STREAM_CREATED: 'Audit log stream added',
  LOG_STREAM_REMOVED: 'Audit log stream removed',
  SECURITY_POLICY_CHANGED: 'Security policy changed',
  // The portal as an OpenID provider
  OIDC_CLIENT_CREATED: 'Application registered',
  OIDC_CLIENT_CHANGED: 'Application changed',
  OIDC_CLIENT_SECRET_ROTATED: 'Application secret rotated',
  OIDC_CLIENT_REMOVED: 'Application removed',
  OIDC_CONSENT_GIVEN: 'Application allowed',
  OIDC_CONSENT_WITHDRAWN: 'Application access withdrawn',
  OIDC_SIGNING_KEY_ROTATED: 'Token signing key rotated',
  SUPPORT_ACCESS_REQUESTED: 'Support access requested',
  SUPPORT_ACCESS_APPROVED: 'Support access approved',
  SUPPORT_ACCESS_REFUSED: 'Support access refused',
  SUPPORT_ACCESS_STARTED: 'Support access started',
  SUPPORT_ACCESS_ENDED: 'Support access ended',
} as const;

export type AuditEventType = keyof typeof AUDIT_EVENT_TYPES;
export const AUDIT_EVENT_TYPE_IDS = Object.keys(AUDIT_EVENT_TYPES) as AuditEventType[];

/**
 * Who acted: a user, the back-end service key, an organisation's directory through a provisioning token, or one of
 * its API keys (a token's or key's name in actorEmail, its id in actorId), or nobody known (a failed sign-in).
 */
export type AuditActorKind = 'user' | 'service' | 'scim-token' | 'api-key' | 'anonymous';

/** One row of GET /api/audit-events. */
export interface AuditEventItem {
  id: number;
  occurredAt: string;
  type: AuditEventType;
  actorKind: AuditActorKind;
  actorId: number | null;
  actorEmail: string | null;
  actorOrganisationId: number | null;
  targetId: number | null;
  targetEmail: string | null;
  targetOrganisationId: number | null;
  organisationId: number | null;
  ip: string | null;
  userAgent: string | null;
  summary: string;
  /** Before → after of each changed field, e.g. {role: {from: 'Analyst', to: 'Viewer'}}. */
  changes: Record<string, { from: unknown; to: unknown }> | null;
  /** In a support-access session: the member the E-Support account (the actor) acted for. */
  onBehalfOfId: number | null;
  onBehalfOfEmail: string | null;
  /** The support-access request the event was made under, or that it tells of. */
  supportAccessId: number | null;
}

export interface AuditEventQuery {
  /** ISO date or date-time; inclusive. A bare date 'to' includes that whole day. */
  from?: string;
  to?: string;
  type?: AuditEventType;
  actorId?: number;
  targetId?: number;
  /** The events of one support-access request: made in its session, or telling of it. */
  supportAccessId?: number;
  /** The events an E-Support account made acting for this member. */
  onBehalfOfId?: number;
  searchText?: string;
  page?: number;
  pageSize?: 25 | 50 | 100;
}

export interface AuditEventPage {
  items: AuditEventItem[];
  /** Exact up to 10,000; when more match, 10,000 and totalIsCapped (the export holds every one). */
  totalRecords: number;
  totalIsCapped: boolean;
  page: number;
  pageSize: number;
}

/**
 * What an audit event records beside its id and its organisation, in order: the columns the trail writes
 * (`AuditService.record`, after `organisationId`) and the CSV export's (after `id`).
 */
export const AUDIT_EVENT_FIELDS = [
  'occurredAt',
  'type',
  'actorKind',
  'actorId',
  'actorEmail',
  'actorOrganisationId',
  'targetId',
  'targetEmail',
  'targetOrganisationId',
  'ip',
  'userAgent',
  'summary',
  'changes',
  'onBehalfOfId',
  'onBehalfOfEmail',
  'supportAccessId',
] as const;

/** Columns of the audit CSV export, in order. */
export const AUDIT_CSV_COLUMNS = ['id', ...AUDIT_EVENT_FIELDS] as const;
