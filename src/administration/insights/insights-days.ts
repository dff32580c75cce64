/** Days in the insights' time zone: the calendar date of an instant there, and the dates of a period. */
export class InsightsDays {
  private readonly format: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  }

  /** YYYY-MM-DD of this instant in the time zone. */
  dayOf(at: Date): string {
    return this.format.format(at);
  }

  /** Every date from `from` to `to`, both included (calendar dates: no time zone arithmetic needed). */
  static between(from: string, to: string): string[] {
    const out: string[] = [];
    for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += 86_400_000)
      out.push(new Date(d).toISOString().slice(0, 10));
    return out;
  }

  /** The date `days` before this one. */
  static minus(date: string, days: number): string {
    return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
  }
}
