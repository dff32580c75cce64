import { InsightsDays } from './insights-days';

describe('InsightsDays', () => {
  it("names an instant's day in the time zone, across its midnight and daylight saving", () => {
    const sydney = new InsightsDays('Australia/Sydney');
    // UTC+11 in summer: 12:59:59Z is 23:59:59 local, 13:00:00Z the next day.
    expect(sydney.dayOf(new Date('2026-11-14T12:59:59Z'))).toBe('2026-11-14');
    expect(sydney.dayOf(new Date('2026-11-14T13:00:00Z'))).toBe('2026-11-15');
    // UTC+10 in winter.
    expect(sydney.dayOf(new Date('2026-06-14T13:59:59Z'))).toBe('2026-06-14');
    expect(sydney.dayOf(new Date('2026-06-14T14:00:00Z'))).toBe('2026-06-15');
    expect(new InsightsDays('UTC').dayOf(new Date('2026-11-14T13:00:00Z'))).toBe('2026-11-14');
  });

  it("lists a period's dates, both ends included, across months and a leap day", () => {
    expect(InsightsDays.between('2028-02-27', '2028-03-01')).toEqual([
      '2028-02-27',
      '2028-02-28',
      '2028-02-29',
      '2028-03-01',
    ]);
    expect(InsightsDays.between('2026-01-01', '2026-12-31')).toHaveLength(365);
    expect(InsightsDays.minus('2026-03-01', 1)).toBe('2026-02-28');
  });
});
