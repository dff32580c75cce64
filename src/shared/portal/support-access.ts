/**
 * Support access (docs/support-access.md): an E-Support account acting as a member of an organisation, with the
 * organisation's consent, for a bounded time. Server and client import this file.
 */

/** The organisation's choice in its security policy: never, each request approved by a site admin, or always. */
export const SUPPORT_ACCESS_POLICIES = ['never', 'approval', 'always'] as const;
export type SupportAccessPolicy = (typeof SUPPORT_ACCESS_POLICIES)[number];
export const DEFAULT_SUPPORT_ACCESS_POLICY: SupportAccessPolicy = 'approval';

export const SUPPORT_ACCESS_STATUSES = ['pending', 'approved', 'active', 'ended', 'expired', 'refused'] as const;
export type SupportAccessStatus = (typeof SUPPORT_ACCESS_STATUSES)[number];

export const SUPPORT_ACCESS_LIMITS = {
  REASON_MIN: 10,
  REASON_MAX: 500,
  /** An unstarted request lapses this long after it was made. */
  REQUEST_LAPSE_MS: 24 * 60 * 60_000,
  /** A session lasts at most this long from its start, and is never extended. */
  SESSION_MS: 60 * 60_000,
} as const;

/** Why a support-access session ended, as the member's e-mail and the audit trail say it. */
export const SUPPORT_ACCESS_END_REASONS = {
  stopped: 'stopped by the E-Support account',
  'ended-by-admin': "ended by the organisation's site admin",
  'time-limit': 'reached its 60-minute limit',
  'session-ended': 'its session was ended (log-off)',
  'access-off': 'the organisation turned support access off',
} as const;
export type SupportAccessEndReason = keyof typeof SUPPORT_ACCESS_END_REASONS;

/** An account as a support-access request names it. */
export interface SupportAccessParty {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
}

/** One request, as GET /api/support-access lists it. */
export interface SupportAccessItem {
  id: number;
  organisationId: number;
  organisationName: string;
  supportUser: SupportAccessParty;
  user: SupportAccessParty;
  reason: string;
  status: SupportAccessStatus;
  requestedAt: string;
  /** When an unstarted request lapses. */
  expiresAt: string;
  startedAt: string | null;
  /** Start + 60 minutes. */
  endsAt: string | null;
  endedAt: string | null;
}

/** POST /api/support-access. */
export interface SupportAccessRequest {
  userId: number;
  reason: string;
}

/** The answer of POST /api/support-access. */
export interface SupportAccessCreated {
  id: number;
  status: SupportAccessStatus;
  expiresAt: string;
}

/** The answer of POST /api/support-access/{id}/start: the access token of a session as the member. */
export interface SupportAccessStarted {
  accessToken: string;
  /** The session's end; the token is not refreshed and expires then. */
  endsAt: string;
}

/** The E-Support account acting in a support-access session, as the access token's `act` claim names it. */
export interface SupportActor {
  sub: number;
  email: string;
}

export const SUPPORT_ACCESS_MESSAGES = {
  OFF: "This organisation's security policy does not allow support access.",
  FORBIDDEN: 'This action is not available in a support-access session.',
  TARGET: 'E-Support accounts cannot be the target of support access.',
  NOT_PENDING: 'This request is no longer waiting for approval.',
  NOT_STARTABLE: 'This request cannot be started: it is not approved, has lapsed or has ended.',
  ALREADY_ACTIVE: 'You already have a support-access session running. Stop it first.',
  NOT_ACTIVE: 'This support access has already ended.',
  NOTIFICATION_TITLE: 'Support access requested',
  /** The notification's way to the page where a site admin approves or refuses the request. */
  NOTIFICATION_LINK: 'Approve or refuse',
  MAIL_REQUEST_SUBJECT: 'Support access requested',
  MAIL_ENDED_SUBJECT: 'A support-access session on your account has ended',
} as const;
