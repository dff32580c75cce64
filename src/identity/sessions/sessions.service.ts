import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, IsNull, MoreThan, Not, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { publish } from '../../platform/events';
import { lockRow, lockRowAndCount } from '../../platform/database/locks';
import { runSql, storedDate } from '../../platform/database/raw-sql';
import { AppException } from '../../platform/web/app.exception';
import { LIFETIMES } from '../../shared/limits';
import { ERROR_CODES } from '../../shared/messages';
import { refreshInvalid, RefreshTokenService } from '../credentials/refresh-token.service';
import { AuthUser } from '../../platform/web/auth-user';
import { ClientInfo } from '../../platform/web/request-context';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { Session, SessionEndReason } from './entities/session.entity';
import { TrustedDevice } from '../trusted-devices';
import { SESSION_ENDED, SESSION_STARTED } from './session-events';
import { INSIGHTS_MESSAGES, MySession, MySessionsEnded, signInMethodOf } from '../../shared/administration/insights';

export interface StartedSession {
  session: Session;
  refreshToken: string;
}

/** The reasons for ending every session of an account that also end its trusted devices. */
const REVOKES_TRUSTED_DEVICES: ReadonlySet<SessionEndReason> = new Set([
  'password-changed',
  'mfa-changed',
  'disabled',
  'not-me',
]);

/**
 * The users of an organisation online (the concurrent-users check, the insights' peak): its accounts, each with one
 * look into its open sessions refreshed since (IDX_sessions_user_online), so the count costs what the organisation's
 * accounts number, however many sessions each keeps open. Counting the distinct users among the organisation's online
 * sessions read every one of them: a sign-in paid for every sign-in of the last fifteen minutes (docs/decisions/).
 * Parameters: the organisation, the time since which a refresh counts as online.
 */
export const ONLINE_USERS =
  'SELECT COUNT(*) AS "n" FROM "users" "u" WHERE "u"."organisationId" = ? AND EXISTS (SELECT 1 FROM "sessions" "s" WHERE "s"."userId" = "u"."id" AND "s"."endedAt" IS NULL AND "s"."lastRefreshAt" > ?)';
/** The users online besides one (a sign-in's concurrent-users check); parameters as ONLINE_USERS', then that user. */
export const ONLINE_OTHERS = `${ONLINE_USERS} AND "u"."id" <> ?`;
/** A new session (not ended; its other columns empty). */
const INSERT_SESSION =
  'INSERT INTO "sessions" ("id", "userId", "organisationId", "createdAt", "lastRefreshAt", "ip", "userAgent", "method") VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
/** A sign-in's time as the account's last login (and its row's time of change, as TypeORM's update() writes it). */
const LAST_LOGIN = 'UPDATE "users" SET "lastLoginAt" = ?, "updatedAt" = CURRENT_TIMESTAMP WHERE "id" = ?';

/** The audit summary of a session the organisation's security policy ended, by its reason. */
const POLICY_END_SUMMARIES: Partial<Record<SessionEndReason, string>> = {
  idle: 'Session ended by the security policy: idle for longer than its limit',
  'policy-max-age': 'Session ended by the security policy: older than its maximum age',
  'sso-required': 'Session ended by the security policy: single sign-on is required, and it was opened otherwise',
};

/**
 * Sign-in sessions and their rotating refresh tokens (docs/product-rules.md §3): a session started (within the
 * organisation's concurrent-users limit), refreshed, ended, and a user's own sessions listed and ended. How the
 * organisation's user administrators see and end their users' sessions is {@link OrganisationSessions}'.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @Inject(EventEmitter2) private readonly events: EventEmitter2,
    private readonly audit: AuditService,
    private readonly refreshTokens: RefreshTokenService,
  ) {}

  /** Online: a session not ended and refreshed within the access-token lifetime. */
  onlineSince(now = new Date()): Date {
    return new Date(now.getTime() - LIFETIMES.ACCESS_TOKEN_SECONDS * 1000);
  }

  /**
   * Refuses a sign-in that would take the organisation past its maximum of concurrent users, counted after its row
   * is locked (`online`: its users online besides this one; a user who is already online does not count twice).
   * Answers that count (undefined for the vendor's organisation, which has no limit).
   */
  private assertConcurrentLimit(org: Organisation, online: number): number | undefined {
    if (org.isVendor) return undefined;
    if (online >= org.maxConcurrentUsers) {
      throw new AppException(
        HttpStatus.FORBIDDEN,
        ERROR_CODES.CONCURRENT_USERS_EXCEEDED,
        'Your organisation has reached the max allowed concurrent users. Further user logins will not be allowed. Please try again later or ask your administrator to force log off a user.',
      );
    }
    return online;
  }

  /**
   * Opens a session for a signed-in user in one transaction: the concurrent-users check under the
   * organisation's lock, the session, its first refresh token and the user's last login. Parallel
   * sign-ins queue on the lock, so the limit holds. `within` adds rows that must commit with the session.
   */
  async start(
    user: User,
    client: ClientInfo,
    method = 'password',
    within?: (tx: EntityManager, session: Session) => Promise<void>,
  ): Promise<StartedSession> {
    const started = await this.sessions.manager.transaction(async (tx) => {
      const locked = await lockRowAndCount(
        tx,
        Organisation,
        user.organisationId,
        ['id', 'isVendor', 'maxConcurrentUsers'],
        {
          sql: ONLINE_OTHERS,
          params: [user.organisationId, storedDate(tx, this.onlineSince()), user.id],
        },
      );
      if (!locked) throw AppException.unauthorized();
      const others = this.assertConcurrentLimit(locked.row, locked.count);
      const now = new Date();
      const session = tx.getRepository(Session).create({
        id: randomUUID(),
        userId: user.id,
        organisationId: user.organisationId,
        createdAt: now,
        lastRefreshAt: now,
        endedAt: null,
        endReason: null,
        ip: client.ip?.slice(0, 64) ?? null,
        userAgent: client.userAgent?.slice(0, 300) ?? null,
        method,
      });
      await runSql(tx, INSERT_SESSION, [
        session.id,
        session.userId,
        session.organisationId,
        storedDate(tx, now),
        storedDate(tx, now),
        session.ip,
        session.userAgent,
        method,
      ]);
      const refreshToken = await this.refreshTokens.issue(tx, session.id);
      if (within) await within(tx, session);
      await runSql(tx, LAST_LOGIN, [storedDate(tx, session.createdAt), user.id]);
      await this.audit.record(tx, {
        type: method === 'sso' ? 'SSO_SIGN_IN' : 'SIGN_IN_SUCCEEDED',
        actor: user,
        target: user,
        client,
        summary: method === 'sso' ? 'Signed in through corporate SSO' : `Signed in (${method})`,
        signIn: { method: signInMethodOf(method), online: others === undefined ? undefined : others + 1 },
      });
      return { session, refreshToken };
    });
    publish(this.events, SESSION_STARTED, {
      sessionId: started.session.id,
      userId: user.id,
      organisationId: user.organisationId,
    });
    return started;
  }

  /**
   * Exchanges a refresh token for its successor. A token presented again after its rotation is
   * reuse, and ends the whole session; within a few seconds it is a second tab racing the first,
   * which gets a new access token but no new refresh token.
   */
  async rotate(raw: string | undefined): Promise<{
    session: Pick<Session, 'id' | 'userId'> & { sessionRules?: boolean; previousRefreshAt?: Date | null };
    refreshToken?: string;
  }> {
    const outcome = await this.refreshTokens.rotate(raw);
    if ('end' in outcome) {
      await this.end(outcome.sessionId, outcome.end);
      throw refreshInvalid();
    }
    // A second tab's race: the session is refreshed all the same.
    if (!('refreshToken' in outcome))
      await this.sessions.update({ id: outcome.session.id }, { lastRefreshAt: new Date() });
    return outcome;
  }

  async isActive(sessionId: string): Promise<boolean> {
    return (await this.sessions.countBy({ id: sessionId, endedAt: IsNull() })) > 0;
  }

  /**
   * Ends one session; answers whether this call ended it (false: it had already ended). Only the call whose
   * conditional update ends the session records its end, so parallel ends (two instances' sweeps, a call and the
   * sweep, two logouts) record it once: a logout (the user's own act) with the client given, an end by the
   * organisation's security policy (idle or too old) as the service's, each in the transaction that ends it.
   */
  async end(sessionId: string, reason: SessionEndReason, client?: ClientInfo): Promise<boolean> {
    const ended = await this.sessions.manager.transaction(async (tx) => {
      const session = await tx.getRepository(Session).findOneBy({ id: sessionId, endedAt: IsNull() });
      if (!session) return null;
      const updated = await tx
        .getRepository(Session)
        .update({ id: sessionId, endedAt: IsNull() }, { endedAt: new Date(), endReason: reason });
      if (!updated.affected) return null;
      const policy = POLICY_END_SUMMARIES[reason];
      if (reason !== 'logout' && !policy) return session;
      const user = await tx.getRepository(User).findOneBy({ id: session.userId });
      if (!user) return session;
      if (policy)
        await this.audit.record(tx, {
          type: 'SESSION_EXPIRED',
          actor: 'service',
          target: user,
          organisationId: session.organisationId,
          summary: policy,
        });
      else await this.audit.record(tx, { type: 'LOGOUT', actor: user, target: user, client, summary: 'Logged out' });
      return session;
    });
    if (!ended) return false;
    publish(this.events, SESSION_ENDED, {
      sessionId,
      userId: ended.userId,
      organisationId: ended.organisationId,
      reason,
    });
    return true;
  }

  /**
   * Ends every open session of these users (optionally sparing one: the caller's own). Inside the caller's
   * transaction when `tx` is given, so the change that ends them and the ending commit together.
   */
  async endAllForUsers(
    userIds: number[],
    reason: SessionEndReason,
    exceptSessionId?: string,
    tx?: EntityManager,
  ): Promise<number> {
    if (userIds.length === 0) return 0;
    const work = async (m: EntityManager) => {
      const open = await m.getRepository(Session).findBy({
        userId: In(userIds),
        endedAt: IsNull(),
        ...(exceptSessionId ? { id: Not(exceptSessionId) } : {}),
      });
      if (open.length > 0) {
        await m
          .getRepository(Session)
          .update({ id: In(open.map((s) => s.id)), endedAt: IsNull() }, { endedAt: new Date(), endReason: reason });
      }
      // A password change, an MFA change or disabling the account also revokes every trusted device.
      if (REVOKES_TRUSTED_DEVICES.has(reason)) await m.getRepository(TrustedDevice).delete({ userId: In(userIds) });
      return open;
    };
    const open = tx ? await work(tx) : await this.sessions.manager.transaction(work);
    // Sockets close at once; should an enclosing transaction roll back, a dropped socket merely reconnects.
    for (const s of open)
      publish(this.events, SESSION_ENDED, {
        sessionId: s.id,
        userId: s.userId,
        organisationId: s.organisationId,
        reason,
      });
    return open.length;
  }

  /** GET /api/me/sessions: the caller's open sessions (not ended, refreshable), newest first, this one marked. */
  async listOwn(caller: AuthUser): Promise<MySession[]> {
    const rows = await this.sessions.find({
      where: {
        userId: caller.id,
        endedAt: IsNull(),
        lastRefreshAt: MoreThan(new Date(Date.now() - LIFETIMES.REFRESH_TOKEN_SECONDS * 1000)),
      },
      order: { createdAt: 'DESC', id: 'ASC' },
    });
    return rows.map((s) => ({
      id: s.id,
      current: s.id === caller.sessionId,
      createdAt: s.createdAt.toISOString(),
      lastUsedAt: s.lastRefreshAt.toISOString(),
      ip: s.ip,
      userAgent: s.userAgent,
      method: s.method,
    }));
  }

  /** DELETE /api/me/sessions/{id}: one of the caller's own sessions; any other id is a 404. */
  async endOwn(caller: AuthUser, sessionId: string, client?: ClientInfo): Promise<MySessionsEnded> {
    const own = await this.sessions.existsBy({ id: sessionId, userId: caller.id, endedAt: IsNull() });
    if (!own) throw AppException.notFound(INSIGHTS_MESSAGES.SESSION_NOT_FOUND);
    await this.end(sessionId, 'logout', client);
    return { success: true, ended: 1 };
  }

  /** DELETE /api/me/sessions?others=true: every session of the caller but this one, audited once. */
  async endOthers(caller: AuthUser, client?: ClientInfo): Promise<MySessionsEnded> {
    const ended = await this.sessions.manager.transaction(async (tx) => {
      // Parallel requests queue on the account's row, so each counts (and audits) only the sessions it ended.
      await lockRow(tx, User, caller.id);
      const n = await this.endAllForUsers([caller.id], 'logout', caller.sessionId, tx);
      if (n > 0)
        await this.audit.record(tx, {
          type: 'LOGOUT',
          actor: caller,
          target: caller,
          client,
          summary: `Signed out everywhere else (${n} session${n === 1 ? '' : 's'})`,
        });
      return n;
    });
    return { success: true, ended };
  }

  /**
   * The organisation's users online at `at`, as the concurrent-users limit counts them; inside a transaction pass its
   * `tx` (on SQLite a query through another manager would wait for the gate that transaction holds).
   */
  async countOnline(
    organisationId: number,
    at = new Date(),
    manager: EntityManager = this.sessions.manager,
  ): Promise<number> {
    const [online] = await runSql<{ n: number | string }>(manager, ONLINE_USERS, [
      organisationId,
      storedDate(manager, this.onlineSince(at)),
    ]);
    return Number(online?.n ?? 0);
  }
}
