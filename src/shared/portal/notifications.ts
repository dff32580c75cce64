/**
 * Notifications (spec 001 §3, §4, §7, §8, §9): the types, the content fields and their limits, the
 * socket event names and the API shapes, shared by the server and the client.
 */

export const NOTIFICATION_TYPES = [
  'REPORT',
  'PORTFOLIO_PROCESSING',
  'PROCESS_LOG',
  'HOLDER_DOWNLOAD',
  'HOLDER_DOWNLOAD_STATUS',
  'RELEASE_NOTES',
  'CONTRACT_NOTES',
  'IMPORT_FILE',
  'UNMAPPED_DOC_COUNT',
  'PORTFOLIO_TRANSFER',
  'OTHER',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Spec 001 §4: silent types never enter the panel's list (and raise no item toast). */
export const SILENT_TYPES: readonly NotificationType[] = ['HOLDER_DOWNLOAD', 'UNMAPPED_DOC_COUNT'];

/** The content fields of spec 001 §3 and the longest value each may hold. */
export const CONTENT_FIELD_LIMITS = {
  status: 30,
  message: 2000,
  subCategory: 100,
  portfolioName: 200,
  portfolioCode: 50,
  startDate: 40,
  endDate: 40,
  summary: 500,
  detail: 4000,
  fileName: 255,
  downloadLink: 1000,
} as const;

export type ContentField = keyof typeof CONTENT_FIELD_LIMITS;
export const CONTENT_FIELDS = Object.keys(CONTENT_FIELD_LIMITS) as ContentField[];

export type NotificationContent = Partial<Record<ContentField, string>>;

/** The fields of a notification about one portfolio over a period: the head of most types' lists. */
const PORTFOLIO_PERIOD: readonly ContentField[] = [
  'status',
  'message',
  'subCategory',
  'portfolioName',
  'portfolioCode',
  'startDate',
  'endDate',
];
/** A portfolio-period notification that carries a file to download. */
const PORTFOLIO_FILE: readonly ContentField[] = [...PORTFOLIO_PERIOD, 'summary', 'fileName', 'downloadLink'];
/** A portfolio-period notification that reports the progress of a run. */
const PORTFOLIO_RUN: readonly ContentField[] = [...PORTFOLIO_PERIOD, 'summary', 'detail'];

/**
 * Validation by type: the fields a notification of each type may carry, and those it must carry.
 * A field outside its type's list is refused (400), so a publisher's typo never reaches the screen.
 */
export const CONTENT_RULES: Record<
  NotificationType,
  { allowed: readonly ContentField[]; required: readonly ContentField[] }
> = {
  REPORT: { allowed: PORTFOLIO_FILE, required: ['status'] },
  PORTFOLIO_PROCESSING: { allowed: PORTFOLIO_RUN, required: ['status', 'portfolioCode'] },
  PROCESS_LOG: {
    allowed: PORTFOLIO_PERIOD.filter((f) => f !== 'subCategory').concat('fileName', 'downloadLink'),
    required: ['portfolioCode'],
  },
  HOLDER_DOWNLOAD: { allowed: [...PORTFOLIO_PERIOD, 'fileName', 'downloadLink'], required: [] },
  HOLDER_DOWNLOAD_STATUS: { allowed: PORTFOLIO_RUN, required: ['status'] },
  RELEASE_NOTES: {
    allowed: ['message', 'summary', 'detail', 'subCategory', 'fileName', 'downloadLink'],
    required: ['summary'],
  },
  CONTRACT_NOTES: { allowed: PORTFOLIO_FILE, required: [] },
  IMPORT_FILE: {
    allowed: ['status', 'message', 'subCategory', 'portfolioName', 'portfolioCode', 'fileName', 'summary', 'detail'],
    required: ['fileName'],
  },
  UNMAPPED_DOC_COUNT: { allowed: ['message', 'summary', 'detail', 'subCategory'], required: [] },
  PORTFOLIO_TRANSFER: { allowed: PORTFOLIO_RUN, required: ['status'] },
  OTHER: { allowed: CONTENT_FIELDS, required: [] },
};

/** One item of GET api/notifications and of the socket's `notification` event (spec 001 §3). */
export interface NotificationItem {
  notificationId: number;
  read: boolean;
  /** ISO date-time of publication. */
  date: string;
  type: NotificationType;
  content: NotificationContent;
}

/** POST api/notifications (X-Api-Key): exactly one of userId and organisationId. */
export interface PublishNotificationRequest {
  userId?: number;
  organisationId?: number;
  type: NotificationType;
  content: NotificationContent;
}

/** GET api/processedData/processLogUrl/{portfolioId} (spec 001 §7). */
export interface ProcessLogUrlResponse {
  url: string | null;
  fileExists: boolean;
}

/** Socket.io: path and event names. The access token goes in the query as `token` (spec 001 §7). */
export const SOCKET_PATH = '/socket.io';
export const SOCKET_EVENTS = {
  /** server → client: a new NotificationItem. */
  NOTIFICATION: 'notification',
  /** server → client, just before it drops the socket: {reason: 'token-expired' | 'session-ended'}. */
  SESSION: 'session',
  /**
   * server → client, to the organisation's user administrators: its sessions changed (a sign-in, a log-off,
   * a forced log-off), so the User sessions page (spec 001 §2.14) reloads. No payload: the page reads the list
   * through its own call. Coalesced: at most one a second per organisation.
   */
  SESSIONS_CHANGED: 'sessions-changed',
} as const;

/** Messages of a refused connection (the client reads them on `connect_error`). */
export const SOCKET_ERRORS = {
  NO_TOKEN: 'Authentication required.',
  JWT_EXPIRED: 'jwt expired',
  INVALID: 'Invalid token.',
  SESSION_ENDED: 'Your session has ended. Please log in again.',
  MFA_REQUIRED: 'MFA enrolment required.',
  /** The server cannot check the token now (its database is unreachable): the client tries again after a while. */
  UNAVAILABLE: 'Service briefly unavailable.',
  IP_NOT_ALLOWED: 'Network address not allowed by your organisation.',
} as const;

/** Spec 001 §9: download links are valid for one hour. */
export const DOWNLOAD_LINK_SECONDS = 60 * 60;

/** The most recent undismissed notifications the list returns. */
export const NOTIFICATION_LIST_MAX = 200;
