import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation } from '../../platform/web/auth-user';
import { ClientInfo } from '../../platform/web/request-context';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { ACCOUNT_MESSAGES } from '../../shared/messages';
import { LastLogin } from '../../shared/api-answers';
import { ForceLogoffResult, UserSessionRow, UserSessionsResponse } from '../../shared/api-types';
import { ORG_ADMIN_MESSAGES } from '../../shared/administration/organisation-admin';
import { roleNames } from '../../shared/roles';
import { checkAccountAction } from '../../shared/identity/account-rules';
import { Session } from './entities/session.entity';
import { SessionsService } from './sessions.service';

/**
 * The sessions of an organisation's users as its user administrators see them (spec 001 §2.14, the User sessions
 * page): who is online, since when, who an E-Support account acts as; force log-off (spec 001 §8); a user's last
 * login. Every session's own life (start, refresh, end) is {@link SessionsService}'s.
 */
@Injectable()
export class OrganisationSessions {
  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
    private readonly lifecycle: SessionsService,
  ) {}

  /**
   * GET /api/sessions/{userId}: when the user last signed in. Another organisation's user is answered exactly like a
   * missing one (404), so ids reveal nothing.
   */
  async lastLogin(caller: AuthUser, userId: number): Promise<LastLogin> {
    const user = await this.sessions.manager.getRepository(User).findOneBy({ id: userId });
    if (!user || !canAccessOrganisation(caller, user.organisationId))
      throw AppException.notFound(ACCOUNT_MESSAGES.NOT_FOUND);
    const latest = await this.sessions.findOne({ where: { userId }, order: { createdAt: 'DESC' } });
    return { userId: user.id, loginDateTime: latest?.createdAt.toISOString() ?? null };
  }

  /**
   * The users of the caller's organisation with their live sessions (spec 001 §2.14): online while
   * they hold a session not ended and refreshed within the access-token lifetime.
   */
  async userSessions(caller: AuthUser): Promise<UserSessionsResponse> {
    const org = await this.organisations.findOneByOrFail({ id: caller.organisationId });
    const users = await this.sessions.manager
      .getRepository(User)
      .find({ where: { organisationId: org.id }, order: { email: 'ASC' } });
    const stats = await this.sessions
      .createQueryBuilder('s')
      .select('s.userId', 'userId')
      .addSelect('MAX(s.createdAt)', 'lastLogin')
      .addSelect('MAX(s.lastRefreshAt)', 'lastRefresh')
      .addSelect('SUM(CASE WHEN s.endedAt IS NULL AND s.lastRefreshAt > :since THEN 1 ELSE 0 END)', 'online')
      .where('s.organisationId = :org', { org: org.id, since: this.lifecycle.onlineSince() })
      .groupBy('s.userId')
      .getRawMany<{
        userId: number;
        lastLogin: string | Date | null;
        lastRefresh: string | Date | null;
        online: number | string;
      }>();
    const byUser = new Map(stats.map((r) => [Number(r.userId), r]));
    const supported = await this.runningSupportSessions(org.id);
    const iso = (v: string | Date | null | undefined) => (v ? toDate(v).toISOString() : null);
    const userSessions: UserSessionRow[] = users.map((u) => {
      const r = byUser.get(u.id);
      const online = Number(r?.online ?? 0);
      return {
        id: u.id,
        email: u.email,
        roles: roleNames(u.roles).split(', '),
        status: online > 0 ? 'online' : 'offline',
        onlineSessions: online,
        lastLoginTime: iso(r?.lastLogin),
        lastRefreshTime: iso(r?.lastRefresh),
        canForceLogoff: checkAccountAction(caller, u, 'force-logoff') === null,
        ...(supported.has(u.id) ? { supportSession: supported.get(u.id)! } : {}),
      };
    });
    return { userSessions, maxConcurrentUsers: org.maxConcurrentUsers };
  }

  /** The organisation's members an E-Support account acts as now (an open support-access session), by member. */
  private async runningSupportSessions(organisationId: number): Promise<Map<number, UserSessionRow['supportSession']>> {
    const rows = await this.sessions
      .createQueryBuilder('s')
      .innerJoin('support_access', 'sa', 'sa.id = s.supportAccessId')
      .select('s.userId', 'userId')
      .addSelect('sa.id', 'id')
      .addSelect('sa.supportUserEmail', 'email')
      .addSelect('sa.endsAt', 'endsAt')
      .where('s.organisationId = :org AND s.endedAt IS NULL AND sa.status = :active AND sa.endsAt > :now', {
        org: organisationId,
        active: 'active',
        now: new Date(),
      })
      .getRawMany<{ userId: number; id: number; email: string; endsAt: string | Date }>();
    return new Map(
      rows.map((r) => [
        Number(r.userId),
        { supportAccessId: Number(r.id), supportUserEmail: r.email, endsAt: toDate(r.endsAt).toISOString() },
      ]),
    );
  }

  /**
   * Ends every session of these users at once (spec 001 §8 'force log off'): their next call is
   * refused and their refresh fails. Only users of the caller's organisation: any other id is a 404
   * and nothing is ended.
   */
  async forceLogoff(caller: AuthUser, userIds: number[], client?: ClientInfo): Promise<ForceLogoffResult> {
    const ids = [...new Set(userIds)];
    const targets = await this.assertMayForceLogoff(caller, ids);
    // One audit event per account, committed with the ending of its sessions.
    const sessionsEnded = await this.sessions.manager.transaction(async (tx) => {
      const n = await this.lifecycle.endAllForUsers(ids, 'force-logoff', undefined, tx);
      for (const target of targets) {
        await this.audit.record(tx, {
          type: 'FORCE_LOGOFF',
          actor: caller,
          target,
          client,
          summary: `Forced log-off of ${target.email}`,
        });
      }
      return n;
    });
    return { success: true, message: ORG_ADMIN_MESSAGES.FORCE_LOGOFF_DONE, sessionsEnded };
  }

  /** The accounts, when the caller may force each of them off (the account-action rule); else 404 or 403. */
  private async assertMayForceLogoff(caller: AuthUser, ids: number[]): Promise<User[]> {
    const targets = await this.sessions.manager
      .getRepository(User)
      .findBy({ id: In(ids), organisationId: caller.organisationId });
    if (targets.length !== ids.length) throw AppException.notFound('User not found.');
    for (const target of targets) {
      const refused = checkAccountAction(caller, target, 'force-logoff');
      if (refused) throw AppException.forbidden(refused);
    }
    return targets;
  }
}

/** SQLite answers aggregated dates as text in UTC ('YYYY-MM-DD HH:MM:SS.SSS'); PostgreSQL as dates. */
function toDate(v: string | Date): Date {
  if (v instanceof Date) return v;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`);
}
