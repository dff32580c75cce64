import { describe, expect, it } from 'vitest';
import { formatDate, formatMediumDate, formatNotificationDate, formatSessionDate } from './date-formats';

describe('notification date (spec 001 §9: d/M/yy, h:mm a)', () => {
  it('formats in local time', () => {
    const local = new Date(2026, 2, 5, 15, 7);
    expect(formatNotificationDate(local.toISOString())).toBe('5/3/26, 3:07 PM');
    expect(formatNotificationDate(new Date(2026, 11, 25, 0, 30).toISOString())).toBe('25/12/26, 12:30 AM');
    expect(formatNotificationDate('nonsense')).toBe('');
  });
});

describe('session date', () => {
  it("formats dates as 'EEE, d MMM y, h:mm:ss a'", () => {
    const local = new Date(2026, 2, 4, 17, 6, 7);
    expect(formatSessionDate(local.toISOString())).toBe('Wed, 4 Mar 2026, 5:06:07 PM');
    expect(formatSessionDate(null)).toBe('');
  });
});

describe('the other formats', () => {
  it('dd/MM/yy and the medium en-AU date', () => {
    expect(formatDate(new Date(2026, 2, 4, 9, 0))).toBe('04/03/26');
    expect(formatMediumDate(new Date(2026, 2, 4, 9, 0))).toBe('4 Mar 2026');
  });
});
