import { DATE_PATTERNS, formatClientAddress, formatDateTime, formatMoment } from './display-formats';

describe('formatDateTime: the one way a moment is shown (en-AU)', () => {
  const moment = '2026-12-02T03:58:00.000Z';

  it("writes 'EEE, d MMM y, h:mm:ss a' with en-AU's names, in the zone asked for", () => {
    expect(formatDateTime(moment, 'Australia/Sydney')).toBe('Wed, 2 Dec 2026, 2:58:00 PM');
    expect(formatDateTime(moment, 'UTC')).toBe('Wed, 2 Dec 2026, 3:58:00 AM');
    expect(formatDateTime(new Date(moment), 'UTC')).toBe('Wed, 2 Dec 2026, 3:58:00 AM');
    expect(formatDateTime(Date.parse(moment), 'UTC')).toBe('Wed, 2 Dec 2026, 3:58:00 AM');
  });

  it("names months and the day's half as en-AU does, and writes noon and midnight as 12", () => {
    expect(formatDateTime('2026-09-05T00:07:09Z', 'UTC')).toBe('Sat, 5 Sep 2026, 12:07:09 AM');
    expect(formatDateTime('2026-06-30T12:00:00Z', 'UTC')).toBe('Tue, 30 Jun 2026, 12:00:00 PM');
  });

  it('says nothing for a missing or invalid moment', () => {
    for (const bad of [null, undefined, '', 'nonsense', '2026-13-45T99:00:00Z', Number.NaN]) {
      expect(formatDateTime(bad, 'UTC')).toBe('');
    }
  });

  it("follows daylight saving in the zone (Sydney's AEDT and AEST)", () => {
    expect(formatMoment('2026-12-02T03:58:00Z', DATE_PATTERNS.DATE_TIME_WITH_ZONE, 'Australia/Sydney')).toBe(
      'Wed, 2 Dec 2026, 2:58:00 PM AEDT',
    );
    expect(formatMoment('2026-07-02T03:58:00Z', DATE_PATTERNS.DATE_TIME_WITH_ZONE, 'Australia/Sydney')).toBe(
      'Thu, 2 Jul 2026, 1:58:00 PM AEST',
    );
  });
});

describe("the specification's other date formats", () => {
  it.each([
    [DATE_PATTERNS.NOTIFICATION, '2026-03-05T04:07:00Z', '5/3/26, 4:07 AM'],
    [DATE_PATTERNS.NOTIFICATION, '2026-12-25T13:30:00Z', '25/12/26, 1:30 PM'],
    [DATE_PATTERNS.DATE, '2026-03-04T09:00:00Z', '04/03/26'],
    [DATE_PATTERNS.MEDIUM_DATE, '2026-03-04T09:00:00Z', '4 Mar 2026'],
    [DATE_PATTERNS.DAY_MONTH, '2026-09-14T09:00:00Z', '14 Sep'],
  ])('%s: %s reads %s', (pattern, at, shown) => {
    expect(formatMoment(at, pattern, 'UTC')).toBe(shown);
  });

  it('the day is the zone’s day', () => {
    expect(formatMoment('2026-03-04T20:00:00Z', DATE_PATTERNS.DATE, 'UTC')).toBe('04/03/26');
    expect(formatMoment('2026-03-04T20:00:00Z', DATE_PATTERNS.DATE, 'Australia/Sydney')).toBe('05/03/26');
  });
});

describe('formatClientAddress', () => {
  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:203.0.113.9', '203.0.113.9'],
    ['0:0:0:0:0:ffff:10.0.0.1', '10.0.0.1'],
    ['::ffff:7f00:1', '127.0.0.1'],
    ['::ffff:cb00:7109', '203.0.113.9'],
  ])('shows the IPv4-mapped %s as %s', (mapped, shown) => {
    expect(formatClientAddress(mapped)).toBe(shown);
  });

  it.each(['127.0.0.1', '203.0.113.9', '::1', '2001:db8::ffff:1.2.3.4', 'fe80::1', '2606:4700:4700::1111', '::ffff:1'])(
    'leaves %s as it is',
    (address) => expect(formatClientAddress(address)).toBe(address),
  );

  it('leaves what is not a mapped address untouched, and a missing one missing', () => {
    expect(formatClientAddress('::ffff:999.1.1.1')).toBe('::ffff:999.1.1.1');
    expect(formatClientAddress('::ffff:1.2.3')).toBe('::ffff:1.2.3');
    expect(formatClientAddress('::ffff:')).toBe('::ffff:');
    expect(formatClientAddress('unknown')).toBe('unknown');
    expect(formatClientAddress('')).toBe('');
    expect(formatClientAddress(null)).toBeNull();
    expect(formatClientAddress(undefined)).toBeNull();
  });
});
