import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, LessThanOrEqual, Not } from 'typeorm';
import { createSafeFetch, SafeFetch } from '../common/http/safe-fetch';
import { runPeriodically } from '../common/periodic';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { SessionEvents } from '../sessions';
import { OidcRecord } from './entities/oidc-record.entity';
import { OidcSessionLink } from './entities/oidc-session-link.entity';
import { revokeGrants } from './oidc-adapter';
import { OidcProviderService } from './oidc-provider.service';

/** A logout token still to deliver. */
interface PendingLogout {
  clientId: string;
  sub: string;
  sid: string;
}

/** How often ended portal sessions are looked for (the event of an end on this instance starts a run at once). */
const SWEEP_MS = 3_000;
const BATCH = 50;

/**
 * Ending a portal session ends what its applications hold (docs/oidc-provider.md, "Logout"): whichever way it ended
 * (logout, force log-off, access off, "This wasn't me", a password change, the organisation's limits), on whichever
 * instance, its provider sessions' grants are revoked (their refresh and access tokens stop at once) and every
 * application it signed into with a back-channel logout URI receives a logout token, retried on the webhooks'
 * schedule until it answers. The work is found in the database (an ended session with a link not yet handled), so
 * nothing is lost to a crash, and claimed by one instance with a conditional update.
 */
@Injectable()
export class OidcLogoutService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('OidcLogout');
  private readonly stops: Array<() => void> = [];
  private running?: Promise<void>;
  private again = false;
  private readonly fetch: SafeFetch;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcProviderService,
    private readonly sessionEvents: SessionEvents,
  ) {
    this.fetch = createSafeFetch({
      allowPrivateNetworks: config.allowPrivateNetworks,
      connectTimeoutMs: 5_000,
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
      maxRedirects: 0,
    });
  }

  onModuleInit(): void {
    this.stops.push(
      this.sessionEvents.onEnded(() => void this.runSoon()),
      runPeriodically(() => this.runSoon(), {
        firstDelayMs: SWEEP_MS,
        everyMs: SWEEP_MS,
        logger: this.logger,
        what: 'Back-channel logout',
      }),
    );
  }

  onModuleDestroy(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** One run at a time; a request during a run makes one more run after it. */
  runSoon(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.endLinkedSessions();
          await this.retryPending();
        } while (this.again);
      } catch (e) {
        this.logger.error(`Back-channel logout failed: ${(e as Error).message}`);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Provider sessions whose portal session has ended: revoked, and their applications told. */
  private async endLinkedSessions(): Promise<void> {
    const rows = (await this.db.query(
      this.sql(
        `SELECT l."opSessionUid" AS "uid" FROM "oidc_session_links" l JOIN "sessions" s ON s."id" = l."portalSessionId"
         WHERE l."loggedOutAt" IS NULL AND s."endedAt" IS NOT NULL LIMIT ${BATCH}`,
      ),
    )) as Array<{ uid: string }>;
    for (const { uid } of rows) await this.endProviderSession(uid);
  }

  /**
   * Ends one provider session, once (the instance whose update marks the link handled does the work): its grants
   * revoked, the session deleted, a logout token for each application with a back-channel logout URI.
   */
  async endProviderSession(opSessionUid: string): Promise<void> {
    const links = this.db.getRepository(OidcSessionLink);
    const claimed = await links.update({ opSessionUid, loggedOutAt: IsNull() }, { loggedOutAt: new Date() });
    if (!claimed.affected) return;
    const records = this.db.getRepository(OidcRecord);
    const session = await records.findOneBy({ model: 'Session', uid: opSessionUid });
    if (!session) return;
    const payload = JSON.parse(session.payload) as {
      accountId?: string;
      authorizations?: Record<string, { sid?: string; grantId?: string }>;
    };
    const authorizations = Object.entries(payload.authorizations ?? {});
    await revokeGrants(
      this.db,
      authorizations.map(([, a]) => a.grantId).filter((g): g is string => typeof g === 'string'),
    );
    await records.delete({ model: 'Session', id: session.id });
    const pending: PendingLogout[] = [];
    for (const [clientId, a] of authorizations) {
      if (payload.accountId && a.sid) pending.push({ clientId, sub: payload.accountId, sid: a.sid });
    }
    const failed = await this.deliver(pending);
    if (failed.length > 0) await this.schedule(opSessionUid, failed, 0);
  }

  /** Logout tokens that failed before, due again now. */
  private async retryPending(): Promise<void> {
    const now = new Date();
    const due = await this.db.getRepository(OidcSessionLink).find({
      where: { loggedOutAt: Not(IsNull()), pending: Not(IsNull()), nextAttemptAt: LessThanOrEqual(now) },
      take: BATCH,
    });
    for (const link of due) {
      // Claimed by moving its next attempt on: another instance's conditional update then finds nothing.
      const lease = new Date(now.getTime() + 60_000);
      const claimed = await this.db
        .getRepository(OidcSessionLink)
        .update({ opSessionUid: link.opSessionUid, nextAttemptAt: link.nextAttemptAt! }, { nextAttemptAt: lease });
      if (!claimed.affected) continue;
      const failed = await this.deliver(JSON.parse(link.pending!) as PendingLogout[]);
      await this.schedule(link.opSessionUid, failed, link.attempts);
    }
  }

  private async schedule(opSessionUid: string, failed: PendingLogout[], attempts: number): Promise<void> {
    const schedule = this.config.webhookRetryScheduleMs;
    const done = failed.length === 0 || attempts >= schedule.length;
    await this.db.getRepository(OidcSessionLink).update(
      { opSessionUid },
      done
        ? { pending: null, nextAttemptAt: null, attempts: attempts + 1 }
        : {
            pending: JSON.stringify(failed),
            attempts: attempts + 1,
            nextAttemptAt: new Date(Date.now() + schedule[attempts]),
          },
    );
  }

  /** Sends each logout token once; answers those that failed (an application removed since is dropped). */
  private async deliver(pending: PendingLogout[]): Promise<PendingLogout[]> {
    const failed: PendingLogout[] = [];
    await Promise.all(
      pending.map(async (p) => {
        const provider = this.oidc.current;
        const client = await provider.Client.find(p.clientId);
        if (!client?.backchannelLogoutUri) return;
        try {
          const token = new provider.IdToken({ sub: p.sub }, { client, ctx: undefined });
          token.mask = { sub: null };
          token.set('events', { 'http://schemas.openid.net/event/backchannel-logout': {} });
          token.set('jti', randomUUID());
          token.set('sid', p.sid);
          const logoutToken = await token.issue({ use: 'logout' });
          const res = await this.fetch(client.backchannelLogoutUri, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ logout_token: logoutToken }).toString(),
            redirect: 'manual',
          });
          await res.arrayBuffer().catch(() => undefined);
          if (res.status !== 200 && res.status !== 204) throw new Error(`HTTP ${res.status}`);
        } catch (e) {
          this.logger.warn(`Back-channel logout to application ${p.clientId} failed: ${(e as Error).message}`);
          failed.push(p);
        }
      }),
    );
    return failed;
  }

  private sql(text: string): string {
    return text;
  }
}
