import { BASE_ROLE, Role, ROLE_CODES, ROLE_NAMES } from '../roles';

/**
 * Invitations (docs/api.md, 'Invitations'): an organisation's administrators invite people by e-mail with the role
 * chosen up front; the person accepts through a single-use link. Server and client import this file.
 */

export const INVITATION_STATUSES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const INVITATION_LIMITS = {
  EXPIRES_IN_DAYS_DEFAULT: 7,
  EXPIRES_IN_DAYS_MIN: 1,
  EXPIRES_IN_DAYS_MAX: 30,
  /** Data rows of one bulk upload (the header row aside). */
  BULK_MAX_ROWS: 1_000,
  /** Rows the invitations page sends per bulk call, so that its progress bar moves. */
  BULK_CLIENT_BATCH: 100,
  /** The largest bulk body in bytes: a thousand rows of the longest address and role name, with room to spare. */
  BULK_MAX_BYTES: 256 * 1024,
  LIST_PAGE_SIZE_MAX: 1_000,
  LIST_PAGE_SIZE_DEFAULT: 100,
} as const;

export const INVITATION_MESSAGES = {
  INVALID:
    'This invitation link is not valid: it has expired, has been used or has been withdrawn. Ask the administrator who invited you to send a new one.',
  EXISTS: 'This address has an open invitation already. Resend it instead.',
  NOT_OPEN: 'This invitation has been accepted or withdrawn already.',
  NOT_FOUND: 'Invitation not found.',
  SUPPORT_ROLE: 'E-Support accounts are created on the Create E-Support page, not by invitation.',
  USER_LIMIT_REACHED:
    'Your organisation has no free seat for a new user. Ask the administrator who invited you to free one or raise the limit.',
  SSO_REQUIRED: 'Your organisation signs you in through its own provider: continue there to accept this invitation.',
  BULK_NOT_CSV: 'Send a CSV file (text/csv) whose first row is the header email,role.',
  BULK_HEADER: 'The first row of the file must be the header email,role.',
  BULK_TOO_MANY: `A file may hold at most ${INVITATION_LIMITS.BULK_MAX_ROWS} invitations: split it.`,
  BULK_EMPTY: 'The file holds no invitations below its header.',
  BULK_DUPLICATE_ROW: 'The same address appears earlier in the file.',
  BULK_UNKNOWN_ROLE: 'Unknown role: use a role code (e.g. ANALYST) or its name (e.g. Analyst).',
  SUBJECT: (organisationName: string) => `You are invited to join ${organisationName}`,
} as const;

/** One invitation, as the invitations page lists it (POST /api/invitations answers one too). */
export interface InvitationItem {
  id: number;
  email: string;
  /** The main role the account will hold. */
  roleId: number;
  /** Whether it will hold the Administrator role beside it. */
  admin: boolean;
  status: InvitationStatus;
  expiresAt: string;
  createdAt: string;
  /** Who invited (or last resent), by name. */
  invitedBy: string | null;
  acceptedAt: string | null;
  revokedAt: string | null;
}

/** Seats of the organisation, beside its pending invitations (which hold none until accepted). */
export interface InvitationSeats {
  /** null: no limit (the vendor's organisation). */
  allowedUsers: number | null;
  activeUsers: number;
  freeSeats: number | null;
  pendingInvitations: number;
}

/** GET /api/invitations */
export interface InvitationList {
  items: InvitationItem[];
  totalRecords: number;
  seats: InvitationSeats;
}

export type BulkInviteStatus = 'invited' | 'skipped' | 'refused';

/** One row of POST /api/invitations/bulk's answer; `row` counts data rows from 1 (the header aside). */
export interface BulkInviteResult {
  row: number;
  email: string;
  status: BulkInviteStatus;
  reason?: string;
}

/** GET /api/invitations/by-token/{token}: what the invitation page shows before anything is accepted. */
export interface InvitationPreview {
  organisationName: string;
  email: string;
  inviterName: string;
  expiresAt: string;
  /** The address must sign in through its organisation's provider: the page starts that sign-in instead. */
  sso: boolean;
}

export interface InviteRequest {
  email: string;
  roleId: number;
  admin?: boolean;
  expiresInDays?: number;
}

export interface AcceptInvitationRequest {
  token: string;
  firstName: string;
  lastName: string;
  password: string;
  acceptToS: boolean;
}

/**
 * A bulk row's role as people write it: a role code (ANALYST) or display name (Analyst), any case. 'Administrator'
 * means the base role with the Administrator role beside it, the only way that role is held. Null when unknown.
 */
export function parseInvitationRole(text: string): { roleId: Role; admin: boolean } | null {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return null;
  for (const role of Object.values(Role).filter((r): r is Role => typeof r === 'number')) {
    if (ROLE_CODES[role].toLowerCase() !== wanted && ROLE_NAMES[role].toLowerCase() !== wanted) continue;
    return role === Role.ADMINISTRATOR ? { roleId: BASE_ROLE, admin: true } : { roleId: role, admin: false };
  }
  return null;
}
