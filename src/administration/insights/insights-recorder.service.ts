import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditHook, AuditRecord, AuditService } from '../../platform/audit';
import { AuditEventItem } from '../../shared/audit';
import { randomToken, sha256 } from '../../platform/crypto/secrets';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { User } from '../../platform/database/entities/user.entity';
import { MailService } from '../../platform/mail/mail.service';
import { Session, SessionsService } from '../../identity/sessions';
import { AuditEventType } from '../../shared/audit';
import {
  NEW_BROWSER_MAIL_INTERVAL_MINUTES,
  NOT_ME_LINK_HOURS,
  SignInFailureReason,
  SignInMethod,
} from '../../shared/administration/insights';
import { PRODUCT_NAME } from '../../shared/messages';
import { deviceLabel } from '../../shared/identity/device-label';
import { formatClientAddress, formatMailDateTime } from '../../shared/display-formats';
import { InsightsDays } from './insights-days';
import { dbDate, dbFlag, run, updated } from './sql';

const SUCCEEDED: ReadonlySet<AuditEventType> = new Set(['SIGN_IN_SUCCEEDED', 'SSO_SIGN_IN']);
const FAILED: ReadonlySet<AuditEventType> = new Set(['SIGN_IN_FAILED', 'SIGN_IN_LOCKED', 'SSO_SIGN_IN_REFUSED']);
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
 * Keeps the insights' counts as sign-ins are audited: an audit hook, so every counted sign-in is one the trail holds,
 * in the same transaction (docs/decisions/insights-counters.md). Each count is one atomic upsert that adds 1, so
 * parallel sign-ins on any number of instances add up. A successful sign-in also records the day's peak of users
 * online, the account's sign-in for its security page, and tells the owner of a browser the account has not used.
 */
@Injectable()
export class InsightsRecorder implements AuditHook, OnModuleInit {
  readonly days: InsightsDays;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditService,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
  ) {
    this.days = new InsightsDays(config.insightsTimeZone);
  }

  onModuleInit(): void {
    this.audit.addHook(this);
  }

  wants(event: AuditRecord): boolean {
    if (organisationOf(event) === null) return false;
    return (
      ((SUCCEEDED.has(event.type) || FAILED.has(event.type)) && !!event.signIn) || ADOPTION_CHANGES.has(event.type)
    );
  }

  async recorded(tx: EntityManager, event: AuditRecord, item: AuditEventItem): Promise<void> {
    const at = new Date(item.occurredAt);
    const org = organisationOf(event)!;
    const day = this.days.dayOf(at);
    if (ADOPTION_CHANGES.has(event.type)) return this.recordAdoption(tx, org, day);
    const method = event.signIn?.method ?? 'password';
    const user = event.target && event.target.organisationId === org ? event.target : null;
    if (SUCCEEDED.has(event.type)) {
      const online = event.signIn?.online ?? (await this.online(tx, org, at));
      // The leading comment makes TypeORM's SQLite runner read the RETURNING row (it runs statements starting with
      // "INSERT " without reading any).
      const [row] = await run<{ mfaTotal: number | null }>(
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
      if (user) {
        const newDevice = await this.browserSeen(tx, user.id, event.client?.browser ?? null, at);
        await this.history(tx, user.id, at, 'succeeded', method, event, newDevice);
        if (newDevice) await this.tellOwner(tx, user, event, at);
      }
      return;
    }
    await run(
      tx,
      `INSERT INTO "insights_daily" ("organisationId", "day", "${column('failed', method)}") VALUES (?, ?, 1)
       ON CONFLICT ("organisationId", "day") DO UPDATE SET
         "${column('failed', method)}" = "insights_daily"."${column('failed', method)}" + 1`,
      [org, day],
    );
    const reason: SignInFailureReason = event.signIn?.reason ?? 'WRONG_PASSWORD';
    await run(
      tx,
      `INSERT INTO "insights_failures" ("organisationId", "day", "reason", "n") VALUES (?, ?, ?, 1)
       ON CONFLICT ("organisationId", "day", "reason") DO UPDATE SET "n" = "insights_failures"."n" + 1`,
      [org, day, reason],
    );
    if (user) await this.history(tx, user.id, at, 'failed', method, event, false);
  }

  /** Users online in the organisation (as the concurrent-users limit counts them), this sign-in's session included. */
  private async online(tx: EntityManager, org: number, at: Date): Promise<number> {
    const r = await tx
      .getRepository(Session)
      .createQueryBuilder('s')
      .select('COUNT(DISTINCT s.userId)', 'n')
      .where('s.organisationId = :org AND s.endedAt IS NULL AND s.lastRefreshAt > :since', {
        org,
        since: this.sessions.onlineSince(at),
      })
      .getRawOne<{ n: number | string }>();
    return Number(r?.n ?? 0);
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
    await run(
      tx,
      `INSERT INTO "insights_daily" ("organisationId", "day", "mfaEnrolled", "mfaTotal") VALUES (?, ?, ?, ?)
       ON CONFLICT ("organisationId", "day") DO UPDATE SET "mfaEnrolled" = excluded."mfaEnrolled", "mfaTotal" = excluded."mfaTotal"`,
      [org, day, enrolled, total],
    );
  }

  private async history(
    tx: EntityManager,
    userId: number,
    at: Date,
    outcome: 'succeeded' | 'failed',
    method: SignInMethod,
    event: AuditRecord,
    newDevice: boolean,
  ): Promise<void> {
    await run(
      tx,
      'INSERT INTO "sign_in_history" ("userId", "at", "outcome", "method", "ip", "userAgent", "newDevice") VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        userId,
        dbDate(tx, at),
        outcome,
        method,
        event.client?.ip?.slice(0, 64) ?? null,
        event.client?.userAgent?.slice(0, 300) ?? null,
        dbFlag(tx, newDevice),
      ],
    );
  }

  /**
   * Records the browser for the account; answers whether it is new to an account that has used another before
   * (the account's first browser is not news). A sign-in that names no browser (no token) is from a browser the
   * account is not known to have used: new, unless the account has none yet, and nothing is recorded.
   */
  private async browserSeen(tx: EntityManager, userId: number, token: string | null, at: Date): Promise<boolean> {
    if (!token) return (await this.knownBrowsers(tx, userId)) > 0;
    const hash = sha256(token);
    const when = dbDate(tx, at);
    // A known browser (the common case) in one statement.
    const known = await updated(
      tx,
      '/* insights: a known browser */ UPDATE "known_browsers" SET "lastSeenAt" = ? WHERE "userId" = ? AND "browserHash" = ? RETURNING "userId"',
      [when, userId, hash],
    );
    if (known > 0) return false;
    const others = await this.knownBrowsers(tx, userId);
    await run(
      tx,
      `INSERT INTO "known_browsers" ("userId", "browserHash", "firstSeenAt", "lastSeenAt") VALUES (?, ?, ?, ?)
       ON CONFLICT ("userId", "browserHash") DO NOTHING`,
      [userId, hash, when, when],
    );
    return others > 0;
  }

  private async knownBrowsers(tx: EntityManager, userId: number): Promise<number> {
    const [row] = await run<{ n: number | string }>(
      tx,
      'SELECT COUNT(*) AS "n" FROM "known_browsers" WHERE "userId" = ?',
      [userId],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * The new-browser e-mail with its "This wasn't me" link, at most once per account in the interval: the upsert
   * claims the interval (parallel sign-ins queue on its row), and only the claim that wrote its nonce sends.
   */
  private async tellOwner(
    tx: EntityManager,
    user: { id: number; email: string },
    event: AuditRecord,
    at: Date,
  ): Promise<void> {
    const nonce = randomToken();
    const due = new Date(at.getTime() - NEW_BROWSER_MAIL_INTERVAL_MINUTES * 60_000);
    await run(
      tx,
      `INSERT INTO "new_browser_mail" ("userId", "sentAt", "nonce") VALUES (?, ?, ?)
       ON CONFLICT ("userId") DO UPDATE SET "sentAt" = excluded."sentAt", "nonce" = excluded."nonce"
       WHERE "new_browser_mail"."sentAt" <= ?`,
      [user.id, dbDate(tx, at), nonce, dbDate(tx, due)],
    );
    const [claim] = await run<{ nonce: string }>(tx, 'SELECT "nonce" FROM "new_browser_mail" WHERE "userId" = ?', [
      user.id,
    ]);
    if (claim?.nonce !== nonce) return;
    const token = randomToken();
    await run(tx, 'INSERT INTO "not_me_links" ("userId", "tokenHash", "expiresAt") VALUES (?, ?, ?)', [
      user.id,
      sha256(token),
      dbDate(tx, new Date(at.getTime() + NOT_ME_LINK_HOURS * 3_600_000)),
    ]);
    const when = formatMailDateTime(at, this.config.insightsTimeZone);
    const link = `${this.config.publicUrl}/notMe?token=${encodeURIComponent(token)}`;
    await this.mail.send(
      {
        to: user.email,
        subject: `${PRODUCT_NAME}: sign-in from a new browser`,
        text:
          'Your account was just signed in to from a browser it has not used before.\n\n' +
          `When: ${when}\n` +
          `From the address: ${formatClientAddress(event.client?.ip) || 'unknown'}\n` +
          `Browser: ${deviceLabel(event.client?.userAgent)}\n\n` +
          'If this was you, you need do nothing.\n\n' +
          `If this wasn't you, open this link: it signs your account out everywhere and e-mails you a link to choose a new password.\n\n${link}\n\n` +
          `The link works once, for ${NOT_ME_LINK_HOURS} hours.`,
      },
      tx,
    );
  }
}

/** The organisation whose log (and counts) an event belongs to, as the trail decides it. */
function organisationOf(event: AuditRecord): number | null {
  if (event.organisationId !== undefined) return event.organisationId;
  return event.target?.organisationId ?? null;
}
