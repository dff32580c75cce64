/**
 * How the portal writes a moment and a client address for people to read: the client's pages and the server's
 * e-mails both go through here, so one moment reads the same everywhere. Machine-readable output (API answers,
 * CSV timestamps, webhook and log-stream bodies) keeps ISO 8601 and is not written here.
 *
 * Dates follow the specification's patterns (date-fns letters) in its locale, en-AU: day before month, the
 * twelve-hour clock, Australian zone names ('AEDT'). The letters' names are written as date-fns writes them for
 * en-AU, and as the portal has always shown them: 'Sep', 'Jun', 'AM', 'PM'.
 */

/** The locale of every date the portal shows. */
export const DISPLAY_LOCALE = 'en-AU';
/** Where the names of weekdays, months and the day's halves come from: date-fns's en-AU names are these. */
const NAMES_LOCALE = 'en-US';

/**
 * The patterns (date-fns/CLDR letters). DATE_TIME is the one way to show a moment: the specification's sessions
 * table format, used wherever a date with its time is shown; the others are the specification's own formats for
 * the places it names, and the date-only forms.
 */
export const DATE_PATTERNS = {
  /** Any moment: 'Wed, 2 Dec 2026, 3:58:00 PM'. */
  DATE_TIME: 'EEE, d MMM y, h:mm:ss a',
  /** A moment in an e-mail, whose reader's time zone is unknown: the zone is named. */
  DATE_TIME_WITH_ZONE: 'EEE, d MMM y, h:mm:ss a z',
  /** A notification's date: '2/12/26, 3:58 PM'. */
  NOTIFICATION: 'd/M/yy, h:mm a',
  /** A day: '02/12/26'. */
  DATE: 'dd/MM/yy',
  /** The About page's medium date: '2 Dec 2026'. */
  MEDIUM_DATE: 'd MMM y',
  /** A day on a chart's axis: '2 Dec'. */
  DAY_MONTH: 'd MMM',
} as const;
export type DatePattern = (typeof DATE_PATTERNS)[keyof typeof DATE_PATTERNS];

/** A moment as an API answer carries it (ISO 8601 text), or as a Date. */
export type Moment = Date | string | number;

type Field = 'weekday' | 'day' | 'month' | 'year' | 'hour' | 'minute' | 'second' | 'dayPeriod' | 'timeZoneName';

/** Built once per time zone ('' is the runtime's own): building an Intl formatter costs far more than using it. */
const named = new Map<string, Intl.DateTimeFormat>();
const numeric = new Map<string, Intl.DateTimeFormat>();
const zones = new Map<string, Intl.DateTimeFormat>();

function formatterOf(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string | undefined,
  options: Intl.DateTimeFormatOptions,
  locale: string = DISPLAY_LOCALE,
) {
  const key = timeZone ?? '';
  let formatter = cache.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    cache.set(key, formatter);
  }
  return formatter;
}

function fieldsOf(date: Date, timeZone: string | undefined): Record<Field, string> & { monthNumber: string } {
  const fields = { monthNumber: '' } as Record<Field, string> & { monthNumber: string };
  const names = formatterOf(
    named,
    timeZone,
    {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      hour12: true,
    },
    NAMES_LOCALE,
  );
  for (const p of names.formatToParts(date)) if (p.type !== 'literal') fields[p.type as Field] = p.value;
  fields.monthNumber = formatterOf(numeric, timeZone, { month: 'numeric' }).format(date);
  return fields;
}

/** The zone's short name as en-AU writes it ('AEDT', 'AEST'). */
function zoneNameOf(date: Date, timeZone: string | undefined): string {
  const zone = formatterOf(zones, timeZone, { timeZoneName: 'short' });
  return zone.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

const TOKENS = /EEE|MMM|MM|M|dd|d|yy|y|h|mm|ss|a|z/g;

/** A Date, or null for a value that is missing or not a moment. */
export function toDate(value: Moment | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A moment written with one of the patterns, in the given IANA time zone or the runtime's own (the browser's,
 * for the client). Nothing ('') for a value that is missing or not a moment.
 */
export function formatMoment(
  value: Moment | null | undefined,
  pattern: DatePattern = DATE_PATTERNS.DATE_TIME,
  timeZone?: string,
): string {
  const date = toDate(value);
  if (!date) return '';
  const f = fieldsOf(date, timeZone);
  const token: Record<string, string> = {
    EEE: f.weekday,
    MMM: f.month,
    MM: f.monthNumber.padStart(2, '0'),
    M: f.monthNumber,
    dd: f.day.padStart(2, '0'),
    d: f.day,
    yy: f.year.slice(-2),
    y: f.year,
    h: f.hour,
    mm: f.minute,
    ss: f.second,
    a: f.dayPeriod,
    z: pattern.includes('z') ? zoneNameOf(date, timeZone) : '',
  };
  return pattern.replace(TOKENS, (t) => token[t]);
}

/** Any moment, the one way the portal shows it: 'Wed, 2 Dec 2026, 3:58:00 PM'. */
export const formatDateTime = (value: Moment | null | undefined, timeZone?: string): string =>
  formatMoment(value, DATE_PATTERNS.DATE_TIME, timeZone);

/** A moment in an e-mail, in the zone the server works in, named: 'Wed, 2 Dec 2026, 2:58:00 PM AEDT'. */
export const formatMailDateTime = (value: Moment, timeZone: string): string =>
  formatMoment(value, DATE_PATTERNS.DATE_TIME_WITH_ZONE, timeZone);

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** The IPv4-mapped IPv6 prefix, short ('::ffff:') or written out ('0:0:0:0:0:ffff:'). */
const MAPPED_PREFIX = /^(?:::|(?:0{1,4}:){5})ffff:/i;
const HEX_PAIR = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/**
 * A client address as people read it. A dual-stack server sees IPv4 clients as IPv4-mapped IPv6 addresses
 * ('::ffff:127.0.0.1', or '::ffff:7f00:1'): those are shown as the IPv4 address they carry. Every other value,
 * real IPv6 included, is shown as it is; a missing one stays missing (null), for the caller to say so.
 */
export function formatClientAddress(address: string | null | undefined): string | null {
  if (address === null || address === undefined) return null;
  const prefix = MAPPED_PREFIX.exec(address);
  if (!prefix) return address;
  const rest = address.slice(prefix[0].length);
  if (IPV4.test(rest)) return rest;
  const hex = HEX_PAIR.exec(rest);
  if (!hex) return address;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
