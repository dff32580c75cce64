import { format } from 'date-fns';

/** The date formats of spec 001 §9 (locale en-AU). */
export const DATE_FORMATS = {
  DATE: 'dd/MM/yy',
  NOTIFICATION: 'd/M/yy, h:mm a',
  SESSION: 'EEE, d MMM y, h:mm:ss a',
} as const;

const toDate = (d: Date | string) => (typeof d === 'string' ? new Date(d) : d);

export const formatDate = (d: Date | string) => format(toDate(d), DATE_FORMATS.DATE);
export const formatNotificationDate = (d: Date | string) => format(toDate(d), DATE_FORMATS.NOTIFICATION);
export const formatSessionDate = (d: Date | string) => format(toDate(d), DATE_FORMATS.SESSION);
/** The About page's medium date, e.g. '4 Mar 2026'. */
export const formatMediumDate = (d: Date | string) => new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium' }).format(toDate(d));
