import { SIGN_IN_FAILURE_REASONS, type InsightsReport } from '@shared/administration/insights';
import { calendarDay, formatDayMonth } from '@/lib/formats';

/** A percentage for people: '42 %', or '—' when there is nothing to divide. */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)} %` : '—';
}

/** A day of the period as the charts and tables label it ('14 Nov'). */
export function dayLabel(date: string): string {
  return formatDayMonth(calendarDay(date));
}

/** The headline figures of a period: the home page shows them, the insights page opens with them. */
export function headline(report: InsightsReport) {
  const succeeded = report.signIns.reduce((n, d) => n + d.succeeded, 0);
  const failed = report.signIns.reduce((n, d) => n + d.failed, 0);
  return {
    succeeded,
    failed,
    failureRate: percent(failed, succeeded + failed),
    mfa: percent(report.mfaAdoption.enrolled, report.mfaAdoption.total),
    seats: `${report.activeUsers} of ${report.allowedUsers}`,
    concurrent: `${report.peakConcurrent} of ${report.maxConcurrent}`,
  };
}

/** The rows of each chart (and of the table beside it), from the report. */
export function chartRows(report: InsightsReport) {
  return {
    signIns: report.signIns.map((d) => ({ day: dayLabel(d.date), Succeeded: d.succeeded, Failed: d.failed })),
    byMethod: report.signIns.map((d) => ({
      day: dayLabel(d.date),
      Password: d.byMethod.password,
      Passkey: d.byMethod.passkey,
      SSO: d.byMethod.sso,
    })),
    failureReasons: report.failureReasons.map((f) => ({
      reason: SIGN_IN_FAILURE_REASONS[f.code] ?? f.code,
      Count: f.count,
    })),
    mfaTrend: report.trend.map((d) => ({
      day: dayLabel(d.date),
      Enrolled: d.mfaEnrolled ?? 0,
      Members: d.mfaTotal ?? 0,
    })),
    concurrent: report.trend.map((d) => ({
      day: dayLabel(d.date),
      Peak: d.peakConcurrent,
      Limit: report.maxConcurrent,
    })),
    seats: [
      { seats: 'Active users', Count: report.activeUsers },
      { seats: 'Seat limit', Count: report.allowedUsers },
    ],
  };
}
