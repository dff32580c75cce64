import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, Repository } from 'typeorm';
import { runPeriodically } from '../../platform/jobs/periodic';
import { lifetimeOver } from '../credentials/security-policy-rules';
import { SessionEnder } from '../credentials/session-ender';
import type { PolicyEnd } from '../credentials/access-policy';
import { Implements } from '../../platform/wiring';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { Session } from './entities/session.entity';
import { SessionsService } from './sessions.service';

/** How often sessions past their organisation's idle or age limit are looked for. */
const SWEEP_EVERY_MS = 60_000;

/**
 * The organisation's session lifetimes (sessionIdleMinutes, sessionMaxHours) end sessions on the server: at their
 * next call or refresh (the session check ends them through this service), and once a minute for those that make
 * no call at all, so that they end with their sockets and their end is recorded even if nobody comes back.
 */
@Injectable()
@Implements(SessionEnder)
export class SessionLifetimeService implements SessionEnder, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SessionLifetimeService.name);
  private stopSweep?: () => void;

  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly sessionsService: SessionsService,
  ) {}

  /** A session the session check found ended by its organisation's policy: ended with its sockets, recorded. */
  endByPolicy(sessionId: string, reason: PolicyEnd): Promise<boolean> {
    return this.sessionsService.end(sessionId, reason);
  }

  onApplicationBootstrap(): void {
    this.stopSweep = runPeriodically(() => this.sweep(), {
      firstDelayMs: SWEEP_EVERY_MS,
      everyMs: SWEEP_EVERY_MS,
      logger: this.logger,
      what: 'Session lifetime sweep',
    });
  }

  onApplicationShutdown(): void {
    this.stopSweep?.();
  }

  /** Ends every open session its organisation's policy has ended by now; answers how many this sweep ended. */
  async sweep(now = Date.now()): Promise<number> {
    const limited = await this.organisations.find({
      select: { id: true, sessionIdleMinutes: true, sessionMaxHours: true, securityPolicyAt: true },
      where: [{ sessionIdleMinutes: Not(IsNull()) }, { sessionMaxHours: Not(IsNull()) }],
    });
    if (limited.length === 0) return 0;
    const byId = new Map(limited.map((o) => [o.id, o]));
    const open = await this.sessions.find({
      select: { id: true, organisationId: true, createdAt: true, lastRefreshAt: true, lastUsedAt: true },
      where: { organisationId: In([...byId.keys()]), endedAt: IsNull() },
    });
    let ended = 0;
    for (const s of open) {
      const org = byId.get(s.organisationId)!;
      const over = lifetimeOver(
        {
          createdAt: s.createdAt,
          lastActiveAt: new Date(
            Math.max(
              s.lastRefreshAt.getTime(),
              s.lastUsedAt?.getTime() ?? 0,
              org.securityPolicyAt ? new Date(org.securityPolicyAt).getTime() : 0,
            ),
          ),
          sessionIdleMinutes: org.sessionIdleMinutes,
          sessionMaxHours: org.sessionMaxHours,
        },
        now,
      );
      if (!over) continue;
      // A call or another instance may have ended it meanwhile: only the one that ends it counts (and records) it.
      if (await this.sessionsService.end(s.id, over)) ended += 1;
    }
    return ended;
  }
}
