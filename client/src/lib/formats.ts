import {
  DATE_PATTERNS,
  formatClientAddress,
  formatDateTime as formatInZone,
  formatMoment,
  type Moment,
} from '@shared/display-formats';

/**
 * Every date and client address the client shows goes through this file: the rules live in
 * `src/shared/display-formats.ts` (the server's e-mails use them too); here they are named by what they show, in
 * the browser's own time zone. Each gives '' for a moment that is missing or invalid.
 */
type MaybeMoment = Moment | null | undefined;

/** Any moment with its time, the one way the portal shows it: 'Wed, 2 Dec 2026, 3:58:00 PM'. */
export const formatDateTime = (d: MaybeMoment) => formatInZone(d);
/** A notification's date, as the specification fixes it: '2/12/26, 3:58 PM'. */
export const formatNotificationDate = (d: MaybeMoment) => formatMoment(d, DATE_PATTERNS.NOTIFICATION);
/** A day (announcements, expiry dates): '02/12/26'. */
export const formatDate = (d: MaybeMoment) => formatMoment(d, DATE_PATTERNS.DATE);
/** The About page's medium date: '2 Dec 2026'. */
export const formatMediumDate = (d: MaybeMoment) => formatMoment(d, DATE_PATTERNS.MEDIUM_DATE);
/** A day on a chart's axis: '2 Dec'. */
export const formatDayMonth = (d: MaybeMoment) => formatMoment(d, DATE_PATTERNS.DAY_MONTH);

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A calendar day as an API writes it ('2026-03-04', no time, no zone): that day wherever the browser is. */
export function calendarDay(day: string): Date | null {
  const m = ISO_DAY.exec(day);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/**
 * A day another system wrote as text (a report's period in a notification): an ISO day or moment as a day
 * (dd/MM/yy), anything else as it was written.
 */
export function formatDayText(text: string): string {
  const day = calendarDay(text) ?? (ISO_MOMENT.test(text) ? text : null);
  return (day && formatDate(day)) || text;
}

/** A client address as people read it (IPv4-mapped IPv6 as its IPv4 address), or `missing` when there is none. */
export const formatAddress = (ip: string | null | undefined, missing: string) => formatClientAddress(ip) || missing;
