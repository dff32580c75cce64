import { AuditEventItem } from '../audit';

/**
 * Privacy (docs/privacy.md): a person's own data (GET /api/me/data-export), erasure (DELETE /api/me, POST
 * /api/users/{id}/erase) and how long the portal keeps what. Server and client import this file.
 */

/** How an erased person reads wherever they were named (the audit trail, kept e-mails, webhook bodies). */
export function erasedUserLabel(id: number): string {
  return `Erased user #${id}`;
}

/**
 * The tombstone's sign-in name: the column stays unique and filled, on a reserved domain (RFC 2606 `.invalid`) no
 * one can hold, so the person's own address is free again and the tombstone can never receive mail or sign in.
 */
export function erasedUserEmail(id: number): string {
  return `erased-${id}@erased.invalid`;
}

export const PRIVACY_LIMITS = {
  /** Days the sign-in history (times, addresses, browsers) is kept. */
  SIGN_IN_HISTORY_DAYS: 90,
  /** Rows the retention job deletes per statement, and the pause between two statements. */
  RETENTION_BATCH: 500,
  RETENTION_PAUSE_MS: 20,
} as const;

export const PRIVACY_MESSAGES = {
  SELF_DELETION_OFF:
    "Your organisation does not allow members to delete their own account. Ask your organisation's site admin.",
  LAST_SITE_ADMIN:
    'You are the last active site admin of your organisation. Make another member site admin first, then delete your account.',
  DIRECTORY_MANAGED: "Your organisation's directory manages your account: ask your administrator to remove it there.",
  SUPPORT_NOT_ERASABLE: 'E-Support accounts are not deleted or erased here.',
  ACCESS_STILL_ON: "Switch this user's access off first, then erase the account.",
  ERASED: 'The account has been erased.',
  DELETED: 'Your account has been deleted.',
  NOT_FOUND: 'User not found.',
} as const;

/** Why a member may not delete their own account now; null when they may. */
export type SelfDeletionRefusal = 'SELF_DELETION_OFF' | 'DIRECTORY_MANAGED' | 'LAST_SITE_ADMIN' | 'E_SUPPORT';

/** GET /api/me/privacy: what My Security offers the caller (DELETE /api/me decides again when called). */
export interface MyPrivacy {
  canDeleteAccount: boolean;
  refusal: SelfDeletionRefusal | null;
  /** Days the caller's organisation keeps audit events, and the sign-in history's days. */
  auditRetentionDays: number;
  signInHistoryDays: number;
}

/** The document GET /api/me/data-export answers (a JSON attachment); docs/privacy.md describes each field. */
export interface MyDataExport {
  /** The schema's version: a field added keeps it, a field removed or changed raises it. */
  schemaVersion: 1;
  exportedAt: string;
  profile: {
    id: number;
    email: string;
    firstName: string;
    lastName: string;
    jobTitle: string;
    department: string;
    location: string;
    createdAt: string;
    lastLoginAt: string | null;
    passwordChangedAt: string | null;
    mfaEnabled: boolean;
    mfaEnforced: boolean;
    signsInThroughProvider: boolean;
    directoryManaged: boolean;
  };
  /** Role codes (the main role, and ADMINISTRATOR when the flag is held). */
  roles: string[];
  organisation: { id: number; code: string; name: string };
  sessions: Array<{
    createdAt: string;
    lastUsedAt: string | null;
    endedAt: string | null;
    endReason: string | null;
    method: string;
    ip: string | null;
    userAgent: string | null;
  }>;
  signInHistory: Array<{
    at: string;
    outcome: 'succeeded' | 'failed';
    method: string | null;
    ip: string | null;
    userAgent: string | null;
    newDevice: boolean;
  }>;
  notifications: Array<{ id: number; type: string; createdAt: string; content: unknown }>;
  feedback: Array<{ title: string; text: string }>;
  /** Messages the person sent through Contact us (kept as the e-mails the portal sent). */
  contactMessages: Array<{ subject: string; text: string; createdAt: string }>;
  groups: Array<{ id: number; name: string }>;
  passkeys: Array<{ name: string; createdAt: string; lastUsedAt: string | null }>;
  trustedDevices: Array<{ name: string; createdAt: string; lastUsedAt: string | null; expiresAt: string }>;
  /** Applications the person consented to sign in to with their portal account. */
  applications: Array<{
    clientId: string;
    name: string;
    scopes: string[];
    grantedAt: string;
    lastUsedAt: string | null;
  }>;
  /** Every audit event the person caused, oldest first (streamed last, page by page). */
  auditEventsByMe: AuditEventItem[];
  /** Every audit event about the person that someone or something else caused, oldest first. */
  auditEventsAboutMe: AuditEventItem[];
}
