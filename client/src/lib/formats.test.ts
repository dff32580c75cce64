import { describe, expect, it } from 'vitest';
import {
  calendarDay,
  formatAddress,
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatDayText,
  formatMediumDate,
  formatNotificationDate,
} from './formats';

// Moments are built in the browser's own zone, the zone the client shows them in.
describe('the one date-time format (en-AU)', () => {
  it("shows every moment as 'EEE, d MMM y, h:mm:ss a', in local time", () => {
    expect(formatDateTime(new Date(2026, 11, 2, 3, 58, 0).toISOString())).toBe('Wed, 2 Dec 2026, 3:58:00 AM');
    expect(formatDateTime(new Date(2026, 2, 4, 17, 6, 7))).toBe('Wed, 4 Mar 2026, 5:06:07 PM');
    expect(formatDateTime(new Date(2026, 8, 5, 0, 7, 9).getTime())).toBe('Sat, 5 Sep 2026, 12:07:09 AM');
  });

  it('shows nothing for a moment that is missing or invalid', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime('nonsense')).toBe('');
  });
});

describe("the specification's named formats", () => {
  it('notifications: d/M/yy, h:mm a', () => {
    expect(formatNotificationDate(new Date(2026, 2, 5, 15, 7).toISOString())).toBe('5/3/26, 3:07 PM');
    expect(formatNotificationDate(new Date(2026, 11, 25, 0, 30).toISOString())).toBe('25/12/26, 12:30 AM');
    expect(formatNotificationDate('nonsense')).toBe('');
  });

  it('a day dd/MM/yy, the medium date, a chart day', () => {
    expect(formatDate(new Date(2026, 2, 4, 9, 0))).toBe('04/03/26');
    expect(formatMediumDate(new Date(2026, 2, 4, 9, 0))).toBe('4 Mar 2026');
    expect(formatDayMonth(new Date(2026, 10, 14))).toBe('14 Nov');
    expect(formatDate(null)).toBe('');
  });
});

describe('days written as text', () => {
  it('an ISO day is that calendar day in any zone; an ISO moment its local day; other text as written', () => {
    expect(calendarDay('2026-03-04')).toEqual(new Date(2026, 2, 4));
    expect(calendarDay('4/3/26')).toBeNull();
    expect(formatDayText('2026-03-04')).toBe('04/03/26');
    expect(formatDayText(new Date(2026, 2, 4, 12).toISOString())).toBe('04/03/26');
    expect(formatDayText('March 2026')).toBe('March 2026');
    expect(formatDayText('2026-02-30T99:00Z')).toBe('2026-02-30T99:00Z');
    expect(formatDayText('')).toBe('');
  });
});

describe('client addresses', () => {
  it('shows an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(formatAddress('::ffff:127.0.0.1', '—')).toBe('127.0.0.1');
    expect(formatAddress('::ffff:7f00:1', '—')).toBe('127.0.0.1');
  });

  it('leaves IPv4 and real IPv6 as they are', () => {
    expect(formatAddress('203.0.113.9', '—')).toBe('203.0.113.9');
    expect(formatAddress('2001:db8::1', '—')).toBe('2001:db8::1');
    expect(formatAddress('::1', '—')).toBe('::1');
  });

  it('says what the caller asks for when there is no address, and leaves a malformed one untouched', () => {
    expect(formatAddress(null, 'Unknown')).toBe('Unknown');
    expect(formatAddress(undefined, '—')).toBe('—');
    expect(formatAddress('', '—')).toBe('—');
    expect(formatAddress('::ffff:300.1.1.1', '—')).toBe('::ffff:300.1.1.1');
  });
});
