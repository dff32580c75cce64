import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, LessThanOrEqual, Not } from 'typeorm';
import { createSafeFetch, SafeFetch } from '../../platform/web/http/safe-fetch';
import { Drain } from '../../platform/jobs/drain';
import { runPeriodically } from '../../platform/jobs/periodic';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { SESSION_ENDED } from '../sessions';
import { BackchannelFailed, OIDC_BACKCHANNEL_FAILED } from './library/backchannel-failed';
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
 * How long an instance holds the logout work it claimed: longer than one attempt (5 s to connect, 10 s to answer),
 * so the work of an instance that died mid-attempt is taken up again once it lapses.
 */
const LEASE_MS = 20_000;

/**
 * Ending a portal session ends what its applications hold (docs/oidc-provider.md, "Logout"): whichever way it ended
 * (logout, force log-off, access off, "This wasn't me", a password change, the organisation's limits), on whichever
 * instance, the grants made in it are revoked (their refresh and access tokens stop at once; they were refused from
 * the moment it ended already) and every application it signed into with a back-channel logout URI receives a logout
 * token, retried on the webhooks' schedule until it answers. The work is found in the database (an ended session
 * with a link not yet handled), so nothing is lost to a crash, and claimed by one instance with a conditional update.
 */
@Injectable()
export class OidcLogoutService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('OidcLogout');
  private readonly stops: Array<() => void> = [];
  /** Whether a session's end starts a delivery: from onModuleInit until the module is destroyed. */
  private listening = false;
  /** One run at a time; a request during a run makes one more run after it. */
  private readonly runs = new Drain({
    pass: async () => {
      await this.endLinkedSessions();
      await this.retryPending();
    },
    afterPasses: async () => {},
    failed: (e) => this.logger.error(`Back-channel logout failed: ${(e as Error).message}`),
  });
  private readonly fetch: SafeFetch;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcProviderService,
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
    this.listening = true;
    this.stops.push(
      () => (this.listening = false),
      runPeriodically(() => this.runSoon(), {
        firstDelayMs: SWEEP_MS,
        everyMs: SWEEP_MS,
        logger: this.logger,
        what: 'Back-channel logout',
      }),
    );
  }

  /** A logout token the library failed to deliver: delivered again later. */
  @OnEvent(OIDC_BACKCHANNEL_FAILED)
  onBackchannelFailed({ error, ...logout }: BackchannelFailed): void {
    this.logger.warn(`Back-channel logout to application ${logout.clientId} failed: ${(error as Error)?.message}`);
    void this.retryLater(logout).catch((e: Error) => this.logger.error(`Back-channel logout failed: ${e.message}`));
  }

  /** A session ended: the logout tokens its end queued go out now. */
  @OnEvent(SESSION_ENDED)
  onSessionEnded(): void {
    if (this.listening) void this.runSoon();
  }

  onModuleDestroy(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Starts a run now, or one more after the running one; resolves when no run is under way. */
  runSoon(): Promise<void> {
    return this.runs.kick();
  }

  /** Grants whose portal session has ended: revoked, and their applications told. */
  private async endLinkedSessions(): Promise<void> {
    const rows = (await this.db.query(
      `SELECT l."grantId" AS "grantId" FROM "oidc_session_links" l JOIN "sessions" s ON s."id" = l."portalSessionId"
         WHERE l."loggedOutAt" IS NULL AND s."endedAt" IS NOT NULL LIMIT ${BATCH}`,
    )) as Array<{ grantId: string }>;
    for (const { grantId } of rows) await this.endGrant(grantId);
  }

  /**
   * Ends one grant whose portal session ended, once (the instance whose update marks the link handled does the
   * work): its codes and tokens revoked, and a logout token for its application when it has a back-channel logout URI.
   * The claim writes the work as pending under a lease in the same update, so a crash before it is done leaves it to
   * the retries, not lost.
   */
  private async endGrant(grantId: string): Promise<void> {
    const links = this.db.getRepository(OidcSessionLink);
    const link = await links.findOneBy({ grantId, loggedOutAt: IsNull() });
    if (!link) return;
    const logouts: PendingLogout[] = link.sid
      ? [{ clientId: link.clientId, sub: String(link.userId), sid: link.sid }]
      : [];
    const claimed = await links.update(
      { grantId, loggedOutAt: IsNull() },
      { loggedOutAt: new Date(), pending: JSON.stringify(logouts), nextAttemptAt: new Date(Date.now() + LEASE_MS) },
    );
    if (!claimed.affected) return;
    await this.endAndTell(grantId, logouts, 0);
  }

  /** Revokes the grant (again, harmlessly, on a retry) and sends what is pending; the rest is scheduled. */
  private async endAndTell(grantId: string, logouts: PendingLogout[], attempts: number): Promise<void> {
    await revokeGrants(this.db, [grantId]);
    const failed = logouts.length > 0 ? await this.deliver(logouts) : [];
    await this.schedule(grantId, failed, attempts);
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
      const lease = new Date(now.getTime() + LEASE_MS);
      const claimed = await this.db
        .getRepository(OidcSessionLink)
        .update({ grantId: link.grantId, nextAttemptAt: link.nextAttemptAt! }, { nextAttemptAt: lease });
      if (!claimed.affected) continue;
      await this.endAndTell(link.grantId, JSON.parse(link.pending!) as PendingLogout[], link.attempts);
    }
  }

  /** A logout token the provider failed to deliver at the end-session endpoint: retried on the schedule. */
  private async retryLater(logout: PendingLogout): Promise<void> {
    const link = await this.db.getRepository(OidcSessionLink).findOneBy({ clientId: logout.clientId, sid: logout.sid });
    if (link) await this.schedule(link.grantId, [logout], 0);
  }

  private async schedule(grantId: string, failed: PendingLogout[], attempts: number): Promise<void> {
    const schedule = this.config.webhookRetryScheduleMs;
    const done = failed.length === 0 || attempts >= schedule.length;
    await this.db.getRepository(OidcSessionLink).update(
      { grantId },
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
}
