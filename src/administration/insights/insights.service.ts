import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation } from '../../platform/web/auth-user';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import {
  GLANCE_TREND_DAYS,
  INSIGHTS_MAX_DAYS,
  INSIGHTS_MESSAGES,
  InsightsReport,
  InsightsTrendDay,
  OrganisationGlance,
  SignInDay,
  SignInFailureReason,
} from '../../shared/administration/insights';
import { InsightsQueryDto } from './dto/insights-query.dto';
import { InsightsDay } from './entities/insights-day.entity';
import { InsightsFailure } from './entities/insights-failure.entity';
import { InsightsDays } from './insights-days';

type Adoption = { enrolled: number; total: number };

/**
 * The insights pages' figures, read from the counts kept as sign-ins are audited (InsightsRecorder): a period
 * reads at most 366 rows of each count table per organisation, however long the audit trail.
 */
@Injectable()
export class InsightsService {
  private readonly days: InsightsDays;

  constructor(
    @InjectRepository(InsightsDay) private readonly daily: Repository<InsightsDay>,
    @InjectRepository(InsightsFailure) private readonly failures: Repository<InsightsFailure>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.days = new InsightsDays(config.insightsTimeZone);
  }

  /** GET /api/insights: the caller's organisation, or (E-Support) the one named; another's is a 404. */
  async report(caller: AuthUser, query: InsightsQueryDto): Promise<InsightsReport> {
    const dates = periodOf(query.from, query.to);
    const orgId = query.organisationId ?? caller.organisationId;
    const org = canAccessOrganisation(caller, orgId) ? await this.organisations.findOneBy({ id: orgId }) : null;
    if (!org) throw AppException.notFound(INSIGHTS_MESSAGES.ORGANISATION_NOT_FOUND);
    const where = { organisationId: org.id, day: Between(query.from, query.to) };
    const [rows, failures, adoption, before] = await Promise.all([
      this.daily.find({ where, order: { day: 'ASC' } }),
      this.failures
        .createQueryBuilder('f')
        .select('f.reason', 'code')
        .addSelect('SUM(f.n)', 'count')
        .where('f.organisationId = :org AND f.day BETWEEN :from AND :to', { org: org.id, ...query })
        .groupBy('f.reason')
        .getRawMany<{ code: SignInFailureReason; count: number | string }>(),
      this.adoption([org.id]),
      // The adoption figures as last recorded before the period, carried into its first days.
      this.daily
        .createQueryBuilder('d')
        .where('d.organisationId = :org AND d.day < :from AND d.mfaTotal IS NOT NULL', {
          org: org.id,
          from: query.from,
        })
        .orderBy('d.day', 'DESC')
        .limit(1)
        .getOne(),
    ]);
    const byDay = new Map(rows.map((r) => [r.day, r]));
    const signIns: SignInDay[] = [];
    const trend: InsightsTrendDay[] = [];
    let enrolled = before?.mfaEnrolled ?? null;
    let total = before?.mfaTotal ?? null;
    for (const date of dates) {
      const r = byDay.get(date);
      const byMethod = {
        password: r?.succeededPassword ?? 0,
        passkey: r?.succeededPasskey ?? 0,
        sso: r?.succeededSso ?? 0,
      };
      signIns.push({
        date,
        succeeded: byMethod.password + byMethod.passkey + byMethod.sso,
        failed: (r?.failedPassword ?? 0) + (r?.failedPasskey ?? 0) + (r?.failedSso ?? 0),
        byMethod,
      });
      if (r?.mfaTotal !== null && r?.mfaTotal !== undefined) {
        enrolled = r.mfaEnrolled;
        total = r.mfaTotal;
      }
      trend.push({ date, mfaEnrolled: enrolled, mfaTotal: total, peakConcurrent: r?.peakConcurrent ?? 0 });
    }
    const now = adoption.get(org.id) ?? { enrolled: 0, total: 0 };
    return {
      from: query.from,
      to: query.to,
      timeZone: this.config.insightsTimeZone,
      signIns,
      activeUsers: now.total,
      allowedUsers: org.allowedUsersNumber,
      mfaAdoption: now,
      peakConcurrent: Math.max(0, ...trend.map((d) => d.peakConcurrent)),
      maxConcurrent: org.maxConcurrentUsers,
      failureReasons: failures
        .map((f) => ({ code: f.code, count: Number(f.count) }))
        .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
      trend,
    };
  }

  /** GET /api/insights/organisations (E-Support): every customer organisation, with its last 30 days of sign-ins. */
  async glance(): Promise<OrganisationGlance[]> {
    const orgs = await this.organisations.find({ where: { isVendor: false }, order: { name: 'ASC', id: 'ASC' } });
    if (orgs.length === 0) return [];
    const ids = orgs.map((o) => o.id);
    const to = this.days.dayOf(new Date());
    const from = InsightsDays.minus(to, GLANCE_TREND_DAYS - 1);
    const dates = InsightsDays.between(from, to);
    const [adoption, rows, lastSignIns, sso] = await Promise.all([
      this.adoption(ids),
      this.daily.createQueryBuilder('d').where('d.day BETWEEN :from AND :to', { from, to }).getMany(),
      this.daily.manager
        .getRepository(User)
        .createQueryBuilder('u')
        .select('u.organisationId', 'org')
        .addSelect('MAX(u.lastLoginAt)', 'at')
        .groupBy('u.organisationId')
        .getRawMany<{ org: number; at: string | Date | null }>(),
      this.daily.manager
        .createQueryBuilder()
        .select('DISTINCT c.organisationId', 'org')
        .from('sso_connections', 'c')
        .where('c.enabled = :yes', { yes: true })
        .getRawMany<{ org: number }>(),
    ]);
    const trend = new Map<number, Map<string, number>>();
    for (const r of rows) {
      const perDay = trend.get(r.organisationId) ?? new Map<string, number>();
      perDay.set(r.day, r.succeededPassword + r.succeededPasskey + r.succeededSso);
      trend.set(r.organisationId, perDay);
    }
    const last = new Map(lastSignIns.map((r) => [Number(r.org), r.at]));
    const withSso = new Set(sso.map((r) => Number(r.org)));
    return orgs.map((o) => {
      const at = last.get(o.id);
      return {
        organisationId: o.id,
        name: o.name,
        activeUsers: adoption.get(o.id)?.total ?? 0,
        allowedUsers: o.allowedUsersNumber,
        mfaAdoption: adoption.get(o.id) ?? { enrolled: 0, total: 0 },
        ssoEnabled: o.isSSOEnabled || withSso.has(o.id),
        lastSignInAt: at ? toDate(at).toISOString() : null,
        signInTrend: dates.map((d) => trend.get(o.id)?.get(d) ?? 0),
      };
    });
  }

  /** Active accounts and those with a second factor, per organisation, now. */
  private async adoption(orgIds: number[]): Promise<Map<number, Adoption>> {
    const rows = await this.daily.manager
      .getRepository(User)
      .createQueryBuilder('u')
      .select('u.organisationId', 'org')
      .addSelect('COUNT(*)', 'total')
      .addSelect('SUM(CASE WHEN u.isMFAEnabled = :yes OR u.hasPasskey = :yes THEN 1 ELSE 0 END)', 'enrolled')
      .where('u.organisationId IN (:...orgIds) AND u.isDisabled = :no AND u.isBlocked = :no', {
        orgIds,
        yes: true,
        no: false,
      })
      .groupBy('u.organisationId')
      .getRawMany<{ org: number; total: number | string; enrolled: number | string | null }>();
    return new Map(rows.map((r) => [Number(r.org), { enrolled: Number(r.enrolled ?? 0), total: Number(r.total) }]));
  }
}

/** The dates of a period, or a 400 when it is not one (from after to, more than 366 days, or not a date). */
function periodOf(from: string, to: string): string[] {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  const valid = (s: string, t: number) => !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
  if (!valid(from, a) || !valid(to, b) || a > b || (b - a) / 86_400_000 + 1 > INSIGHTS_MAX_DAYS)
    throw AppException.badRequest(INSIGHTS_MESSAGES.BAD_PERIOD);
  return InsightsDays.between(from, to);
}

/** SQLite answers aggregated dates as text in UTC; PostgreSQL as dates. */
function toDate(v: string | Date): Date {
  if (v instanceof Date) return v;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`);
}
