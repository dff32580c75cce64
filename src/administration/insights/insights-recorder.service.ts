import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { EntityManager } from 'typeorm';
import { AUDIT_RECORDED, AuditRecorded, organisationAbout, recordedSignIn } from '../../platform/audit';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { User } from '../../platform/database/entities/user.entity';
import { runSql } from '../../platform/database/raw-sql';
import { SessionsService } from '../../identity/sessions';
import { AuditEventType } from '../../shared/audit';
import { SignInFailureReason, SignInMethod } from '../../shared/administration/insights';
import { InsightsDays } from './insights-days';

/** Changes after which an organisation's MFA adoption is recorded again for the day. */
const ADOPTION_CHANGES: ReadonlySet<AuditEventType> = new Set([
  'MFA_ENABLED',
  'MFA_DISABLED',
  'MFA_DISABLED_BY_ADMIN',
  'PASSKEY_ADDED',
  'PASSKEY_REMOVED',
  'USER_CREATED',
  'USER_DELETED',
  'ACCESS_CHANGED',
]);

/** The insights_daily column of an outcome by method: succeededPassword, failedSso, … */
const column = (outcome: 'succeeded' | 'failed', method: SignInMethod) =>
  `${outcome}${method[0].toUpperCase()}${method.slice(1)}`;

/**
 * Keeps the insights' counts as sign-ins are audited: a handler of AUDIT_RECORDED, so every counted sign-in is one
 * the trail holds, in the same transaction (docs/decisions/insights-counters.md). Each count is one atomic upsert
 * that adds 1, so parallel sign-ins on any number of instances add up. A successful sign-in also records the day's
 * peak of users online.
 */
@Injectable()
export class InsightsRecorder {
  readonly days: InsightsDays;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionsService,
  ) {
    this.days = new InsightsDays(config.insightsTimeZone);
  }

  @OnEvent(AUDIT_RECORDED, { suppressErrors: false })
  async recorded({ tx, record: event, item }: AuditRecorded): Promise<void> {
    const org = organisationAbout(event);
    if (org === null) return;
    const at = new Date(item.occurredAt);
    const day = this.days.dayOf(at);
    if (ADOPTION_CHANGES.has(event.type)) return this.recordAdoption(tx, org, day);
    const signIn = recordedSignIn(event);
    if (!signIn) return;
    const { method } = signIn;
    if (signIn.outcome === 'succeeded') {
      const online = event.signIn?.online ?? (await this.online(tx, org, at));
      // The leading comment makes TypeORM's SQLite runner read the RETURNING row (it runs statements starting with
      // "INSERT " without reading any).
      const [row] = await runSql<{ mfaTotal: number | null }>(
        tx,
        `/* insights: a sign-in */ INSERT INTO "insights_daily" ("organisationId", "day", "${column('succeeded', method)}", "peakConcurrent") VALUES (?, ?, 1, ?)
         ON CONFLICT ("organisationId", "day") DO UPDATE SET
           "${column('succeeded', method)}" = "insights_daily"."${column('succeeded', method)}" + 1,
           "peakConcurrent" = CASE WHEN "insights_daily"."peakConcurrent" < excluded."peakConcurrent"
             THEN excluded."peakConcurrent" ELSE "insights_daily"."peakConcurrent" END
         RETURNING "mfaTotal"`,
        [org, day, online],
      );
      // The day's first sign-in records the adoption figures, so the trend has a point for every day with sign-ins.
      if (row?.mfaTotal === null || row?.mfaTotal === undefined) await this.recordAdoption(tx, org, day);
      return;
    }
    await runSql(
      tx,
      `INSERT INTO "insights_daily" ("organisationId", "day", "${column('failed', method)}") VALUES (?, ?, 1)
       ON CONFLICT ("organisationId", "day") DO UPDATE SET
         "${column('failed', method)}" = "insights_daily"."${column('failed', method)}" + 1`,
      [org, day],
    );
    const reason: SignInFailureReason = event.signIn?.reason ?? 'WRONG_PASSWORD';
    await runSql(
      tx,
      `INSERT INTO "insights_failures" ("organisationId", "day", "reason", "n") VALUES (?, ?, ?, 1)
       ON CONFLICT ("organisationId", "day", "reason") DO UPDATE SET "n" = "insights_failures"."n" + 1`,
      [org, day, reason],
    );
  }

  /** Users online in the organisation (as the concurrent-users limit counts them), this sign-in's session included. */
  private online(tx: EntityManager, org: number, at: Date): Promise<number> {
    return this.sessions.countOnline(org, at, tx);
  }

  /** The organisation's active accounts and those with a second factor, as of now, for the day. */
  private async recordAdoption(tx: EntityManager, org: number, day: string): Promise<void> {
    const r = await tx
      .getRepository(User)
      .createQueryBuilder('u')
      .select('COUNT(*)', 'total')
      .addSelect('SUM(CASE WHEN u.isMFAEnabled = :yes OR u.hasPasskey = :yes THEN 1 ELSE 0 END)', 'enrolled')
      .where('u.organisationId = :org AND u.isDisabled = :no AND u.isBlocked = :no', { org, yes: true, no: false })
      .getRawOne<{ total: number | string; enrolled: number | string | null }>();
    const total = Number(r?.total ?? 0);
    const enrolled = Number(r?.enrolled ?? 0);
    await runSql(
      tx,
      `INSERT INTO "insights_daily" ("organisationId", "day", "mfaEnrolled", "mfaTotal") VALUES (?, ?, ?, ?)
       ON CONFLICT ("organisationId", "day") DO UPDATE SET "mfaEnrolled" = excluded."mfaEnrolled", "mfaTotal" = excluded."mfaTotal"`,
      [org, day, enrolled, total],
    );
  }
}
