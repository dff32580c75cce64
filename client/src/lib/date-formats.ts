import { format } from 'date-fns';
import { SESSION_DATE_FORMAT } from '@shared/organisation-admin';

/** The date formats of spec 001 §9 (locale en-AU): every date the client shows goes through this file. */
export const DATE_FORMATS = {
  DATE: 'dd/MM/yy',
  NOTIFICATION: 'd/M/yy, h:mm a',
  SESSION: SESSION_DATE_FORMAT,
  LAST_LOGIN: 'dd/MM/yy h:mm a',
} as const;

/** A Date, or null for a value that is missing or not a date (shown as nothing). */
function toDate(d: Date | string | null | undefined): Date | null {
  if (d === null || d === undefined) return null;
  const date = typeof d === 'string' ? new Date(d) : d;
  return Number.isNaN(date.getTime()) ? null : date;
}

const formatted = (d: Date | string | null | undefined, pattern: string) => {
  const date = toDate(d);
  return date ? format(date, pattern) : '';
};

/** dd/MM/yy (announcements). */
export const formatDate = (d: Date | string) => formatted(d, DATE_FORMATS.DATE);
/** Spec 001 §9: notification dates as d/M/yy, h:mm a, in local time. */
export const formatNotificationDate = (d: Date | string) => formatted(d, DATE_FORMATS.NOTIFICATION);
/** Spec 001 §9: 'EEE, d MMM y, h:mm:ss a'; nothing for a time that never was. */
export const formatSessionDate = (d: Date | string | null) => formatted(d, DATE_FORMATS.SESSION);
/** The About page's medium date, e.g. '4 Mar 2026'. */
export const formatMediumDate = (d: Date | string) => {
  const date = toDate(d);
  return date ? new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium' }).format(date) : '';
};
/** A user's last login (the user list, the roles page), e.g. '04/03/26 5:06 PM'. */
export const formatLastLogin = (d: Date | string) => formatted(d, DATE_FORMATS.LAST_LOGIN);
/** An audit event's or a trusted device's time, in the browser's own locale and zone. */
export const formatEventTime = (d: Date | string) => toDate(d)?.toLocaleString() ?? '';
