import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { EntityManager } from 'typeorm';
import { AUDIT_RECORDED, AuditRecord, AuditRecorded, recordedSignIn } from '../../platform/audit';
import { randomToken, sha256 } from '../../platform/crypto/secrets';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { runSql, storedDate, storedFlag, updatedCount } from '../../platform/database/raw-sql';
import { MailService } from '../../platform/mail/mail.service';
import {
  NEW_BROWSER_MAIL_INTERVAL_MINUTES,
  NOT_ME_LINK_HOURS,
  SignInMethod,
} from '../../shared/administration/insights';
import { PRODUCT_NAME } from '../../shared/messages';
import { deviceLabel } from '../../shared/identity/device-label';
import { formatClientAddress, formatMailDateTime } from '../../shared/display-formats';

/**
 * What a member's security page shows of their sign-ins, kept as they are audited: a handler of AUDIT_RECORDED, in
 * the transaction of the event. Every sign-in to an account, and every refused one, goes to its history; a
 * successful one also records the browser, and tells the owner of a browser the account has not used before (the
 * e-mail with its "This wasn't me" link).
 */
@Injectable()
export class SignInRecorder {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
  ) {}

  @OnEvent(AUDIT_RECORDED, { suppressErrors: false })
  async recorded({ tx, record: event, item }: AuditRecorded): Promise<void> {
    const signIn = recordedSignIn(event);
    const user = signIn?.account;
    if (!signIn || !user) return;
    const at = new Date(item.occurredAt);
    if (signIn.outcome === 'failed') return this.history(tx, user.id, at, 'failed', signIn.method, event, false);
    const newDevice = await this.browserSeen(tx, user.id, event.client?.browser ?? null, at);
    await this.history(tx, user.id, at, 'succeeded', signIn.method, event, newDevice);
    if (newDevice) await this.tellOwner(tx, user, event, at);
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
    await runSql(
      tx,
      'INSERT INTO "sign_in_history" ("userId", "at", "outcome", "method", "ip", "userAgent", "newDevice") VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        userId,
        storedDate(tx, at),
        outcome,
        method,
        event.client?.ip?.slice(0, 64) ?? null,
        event.client?.userAgent?.slice(0, 300) ?? null,
        storedFlag(tx, newDevice),
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
    const when = storedDate(tx, at);
    // A known browser (the common case) in one statement.
    const known = await updatedCount(
      tx,
      '/* insights: a known browser */ UPDATE "known_browsers" SET "lastSeenAt" = ? WHERE "userId" = ? AND "browserHash" = ? RETURNING "userId"',
      [when, userId, hash],
    );
    if (known > 0) return false;
    const others = await this.knownBrowsers(tx, userId);
    await runSql(
      tx,
      `INSERT INTO "known_browsers" ("userId", "browserHash", "firstSeenAt", "lastSeenAt") VALUES (?, ?, ?, ?)
       ON CONFLICT ("userId", "browserHash") DO NOTHING`,
      [userId, hash, when, when],
    );
    return others > 0;
  }

  private async knownBrowsers(tx: EntityManager, userId: number): Promise<number> {
    const [row] = await runSql<{ n: number | string }>(
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
    await runSql(
      tx,
      `INSERT INTO "new_browser_mail" ("userId", "sentAt", "nonce") VALUES (?, ?, ?)
       ON CONFLICT ("userId") DO UPDATE SET "sentAt" = excluded."sentAt", "nonce" = excluded."nonce"
       WHERE "new_browser_mail"."sentAt" <= ?`,
      [user.id, storedDate(tx, at), nonce, storedDate(tx, due)],
    );
    const [claim] = await runSql<{ nonce: string }>(tx, 'SELECT "nonce" FROM "new_browser_mail" WHERE "userId" = ?', [
      user.id,
    ]);
    if (claim?.nonce !== nonce) return;
    const token = randomToken();
    await runSql(tx, 'INSERT INTO "not_me_links" ("userId", "tokenHash", "expiresAt") VALUES (?, ?, ?)', [
      user.id,
      sha256(token),
      storedDate(tx, new Date(at.getTime() + NOT_ME_LINK_HOURS * 3_600_000)),
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
