import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, LessThanOrEqual, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, isSupport } from '../../platform/web/auth-user';
import { runPeriodically } from '../../platform/jobs/periodic';
import { ClientInfo } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { TokenService } from '../../identity/credentials/token.service';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { insertOnly } from '../../platform/database/insert-only';
import { lockRow } from '../../platform/database/locks';
import { MailService } from '../../platform/mail/mail.service';
import { NotificationsService } from '../notifications';
import { Session, SessionEvents, SessionsService } from '../../identity/sessions';
import { ERROR_CODES, ErrorCode } from '../../shared/messages';
import { formatMailDateTime } from '../../shared/display-formats';
import { Role } from '../../shared/roles';
import {
  SUPPORT_ACCESS_END_REASONS,
  SUPPORT_ACCESS_LIMITS as L,
  SUPPORT_ACCESS_MESSAGES as M,
  SupportAccessCreated,
  SupportAccessEndReason,
  SupportAccessItem,
  SupportAccessParty,
  SupportAccessStarted,
  SupportAccessStatus,
} from '../../shared/portal/support-access';
import { SupportAccessQueryDto, SupportAccessRequestDto } from './dto/support-access.dto';
import { SupportAccess } from './entities/support-access.entity';

/** How often started sessions past their end, and requests past their lapse, are looked for. */
const SWEEP_EVERY_MS = 60_000;
/** The most requests one list answers, newest first. */
const LIST_MAX = 500;

/** Who ends a support access: an account (the E-Support account, a site admin), or the product itself. */
type Ender = AuthUser | 'service';

/**
 * Support access (docs/support-access.md): an E-Support account asks to act as a member; the organisation's policy
 * refuses it, approves it at once, or leaves it to its site admins; the account that asked starts a session as the
 * member (at most 60 minutes, never extended, one at a time), which ends when stopped, at its end, by a log-off or
 * when the organisation turns support access off. Every step is audited; the start and end are webhooks too (the
 * audit trail's outbox), and the member is e-mailed when it ends.
 *
 * What the session may do is the guards' (RolesGuard: `refusedInSupportSession`); who acts is read with the session
 * on every call (SessionAuthService), and every audit event made in it names both (AuditService).
 */
@Injectable()
export class SupportAccessService
  implements OnModuleInit, OnModuleDestroy, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(SupportAccessService.name);
  private stopSweep?: () => void;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    @InjectRepository(SupportAccess) private readonly requests: Repository<SupportAccess>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly notifications: NotificationsService,
    private readonly sessions: SessionsService,
    private readonly sessionEvents: SessionEvents,
    private readonly tokens: TokenService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // A support session ended by any other path (log-off, force log-off, its end found by the session check) ends
    // its support access; a policy turned to 'never' ends the organisation's running ones.
    this.unsubscribe.push(
      this.sessionEvents.onEnded(({ sessionId }) => void this.sessionEnded(sessionId).catch((e) => this.failed(e))),
      this.sessionEvents.onPolicyChanged(
        ({ organisationId }) => void this.policyChanged(organisationId).catch((e) => this.failed(e)),
      ),
    );
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe) off();
  }

  onApplicationBootstrap(): void {
    this.stopSweep = runPeriodically(() => this.sweep(), {
      firstDelayMs: SWEEP_EVERY_MS,
      everyMs: SWEEP_EVERY_MS,
      logger: this.logger,
      what: 'Support access sweep',
    });
  }

  onApplicationShutdown(): void {
    this.stopSweep?.();
  }

  /** POST /api/support-access: an E-Support account asks to act as a member. */
  async request(caller: AuthUser, dto: SupportAccessRequestDto, client: ClientInfo): Promise<SupportAccessCreated> {
    const member = await this.users.findOneBy({ id: dto.userId });
    if (!member) throw AppException.notFound('User not found.');
    if (member.roleId === Role.E_SUPPORT) throw AppException.badRequest(M.TARGET, ERROR_CODES.SUPPORT_ACCESS_TARGET);
    const org = await this.organisations.findOneByOrFail({ id: member.organisationId });
    if (org.supportAccess === 'never') throw AppException.forbidden(M.OFF, ERROR_CODES.SUPPORT_ACCESS_OFF);
    const now = new Date(Date.now());
    const status: SupportAccessStatus = org.supportAccess === 'always' ? 'approved' : 'pending';
    const admins =
      status === 'pending'
        ? await this.users.findBy({ organisationId: org.id, roleId: Role.SITE_ADMIN, isDisabled: false })
        : [];
    const saved = await this.requests.manager.transaction(async (tx) => {
      const row = await tx.getRepository(SupportAccess).save(
        tx.getRepository(SupportAccess).create({
          organisationId: org.id,
          supportUserId: caller.id,
          supportUserEmail: caller.email,
          userId: member.id,
          reason: dto.reason,
          status,
          requestedAt: now,
          expiresAt: new Date(now.getTime() + L.REQUEST_LAPSE_MS),
          decidedBy: null,
          startedAt: null,
          endsAt: null,
          endedAt: null,
          endReason: null,
          sessionId: null,
        }),
      );
      await this.audit.record(tx, {
        type: 'SUPPORT_ACCESS_REQUESTED',
        actor: caller,
        target: member,
        client,
        supportAccessId: row.id,
        summary: `Support access to ${member.email} requested: ${dto.reason}`,
      });
      if (status === 'approved')
        await this.audit.record(tx, {
          type: 'SUPPORT_ACCESS_APPROVED',
          actor: 'service',
          target: member,
          supportAccessId: row.id,
          summary: `Support access to ${member.email} approved by the organisation's security policy (always)`,
        });
      for (const admin of admins) await this.mail.send(this.requestMail(admin, caller, member, row), tx);
      return row;
    });
    if (admins.length > 0)
      await this.notifications.notifyUsers(
        org.id,
        admins.map((a) => a.id),
        'OTHER',
        {
          subCategory: M.NOTIFICATION_TITLE,
          message: `${caller.email} (E-Support) asks to act as ${member.email}: ${dto.reason}`,
          summary: `Approve or refuse it on the Support access page before ${saved.expiresAt.toISOString()}.`,
        },
      );
    return { id: saved.id, status: saved.status, expiresAt: saved.expiresAt.toISOString() };
  }

  /** GET /api/support-access: E-Support sees every organisation's (or one's); others their organisation's. */
  async list(caller: AuthUser, query: SupportAccessQueryDto): Promise<SupportAccessItem[]> {
    const qb = this.requests.createQueryBuilder('r').orderBy('r.requestedAt', 'DESC').addOrderBy('r.id', 'DESC');
    if (isSupport(caller)) {
      if (query.organisationId) qb.where('r.organisationId = :org', { org: query.organisationId });
    } else qb.where('r.organisationId = :org', { org: caller.organisationId });
    const rows = await qb.limit(LIST_MAX).getMany();
    const people = await this.users.findBy({ id: In([...new Set(rows.flatMap((r) => [r.userId, r.supportUserId]))]) });
    const orgs = await this.organisations.findBy({ id: In([...new Set(rows.map((r) => r.organisationId))]) });
    const byId = new Map(people.map((u) => [u.id, u]));
    const orgName = new Map(orgs.map((o) => [o.id, o.name]));
    const now = Date.now();
    return rows
      .map((r) => toItem(r, byId, orgName.get(r.organisationId) ?? '', now))
      .filter((item) => !query.status || item.status === query.status);
  }

  /** POST /api/support-access/{id}/approve and …/refuse: the organisation's site admins, while it is pending. */
  async decide(caller: AuthUser, id: number, approve: boolean, client: ClientInfo): Promise<SupportAccessItem> {
    const row = await this.requests.findOneBy({ id, organisationId: caller.organisationId });
    if (!row) throw AppException.notFound('Support access request not found.');
    if (approve) await this.assertAllowed(row.organisationId);
    const now = new Date(Date.now());
    await this.requests.manager.transaction(async (tx) => {
      const updated = await tx
        .createQueryBuilder()
        .update(SupportAccess)
        .set({ status: approve ? 'approved' : 'refused', decidedBy: caller.id })
        .where('id = :id AND status = :pending AND "expiresAt" > :now', { id, pending: 'pending', now })
        .execute();
      if (!updated.affected) throw conflict(M.NOT_PENDING);
      const member = await tx.getRepository(User).findOneByOrFail({ id: row.userId });
      await this.audit.record(tx, {
        type: approve ? 'SUPPORT_ACCESS_APPROVED' : 'SUPPORT_ACCESS_REFUSED',
        actor: caller,
        target: member,
        client,
        supportAccessId: id,
        summary: `Support access to ${member.email} for ${row.supportUserEmail} ${approve ? 'approved' : 'refused'}`,
      });
    });
    return this.item(id);
  }

  /**
   * POST /api/support-access/{id}/start: the E-Support account that asked opens a session as the member, once
   * approved and before the request lapses, while it has no other running. Parallel starts queue on the E-Support
   * account's row: exactly one opens a session.
   */
  async start(caller: AuthUser, id: number, client: ClientInfo): Promise<SupportAccessStarted> {
    const found = await this.requests.findOneBy({ id, supportUserId: caller.id });
    if (!found) throw AppException.notFound('Support access request not found.');
    await this.assertAllowed(found.organisationId);
    const now = new Date(Date.now());
    const endsAt = new Date(now.getTime() + L.SESSION_MS);
    const session = await this.requests.manager.transaction(async (tx) => {
      await lockRow(tx, User, caller.id);
      const row = await tx.getRepository(SupportAccess).findOneByOrFail({ id });
      if (row.status !== 'approved' || row.expiresAt.getTime() <= now.getTime()) throw conflict(M.NOT_STARTABLE);
      const running = await tx
        .getRepository(SupportAccess)
        .createQueryBuilder('r')
        .where('r.supportUserId = :me AND r.status = :active AND r.endsAt > :now', {
          me: caller.id,
          active: 'active',
          now,
        })
        .getCount();
      if (running > 0) throw conflict(M.ALREADY_ACTIVE, ERROR_CODES.SUPPORT_ACCESS_ACTIVE);
      const member = await tx.getRepository(User).findOneByOrFail({ id: row.userId });
      if (member.isDisabled || member.isBlocked) throw conflict(M.NOT_STARTABLE);
      const opened = tx.getRepository(Session).create({
        id: randomUUID(),
        userId: member.id,
        organisationId: member.organisationId,
        createdAt: now,
        lastRefreshAt: now,
        // No proof of the member's identity was ever given in it: a step-up it could pass is never fresh.
        authenticatedAt: new Date(0),
        lastUsedAt: null,
        endedAt: null,
        endReason: null,
        ip: client.ip?.slice(0, 64) ?? null,
        userAgent: client.userAgent?.slice(0, 300) ?? null,
        method: 'support',
        supportAccessId: id,
      });
      await insertOnly(tx, Session, opened);
      await tx
        .getRepository(SupportAccess)
        .update({ id, status: 'approved' }, { status: 'active', startedAt: now, endsAt, sessionId: opened.id });
      await this.audit.record(tx, {
        type: 'SUPPORT_ACCESS_STARTED',
        actor: caller,
        target: member,
        client,
        supportAccessId: id,
        summary: `Support access as ${member.email} started by ${caller.email} until ${endsAt.toISOString()}: ${row.reason}`,
      });
      return opened;
    });
    this.sessionEvents.emitStarted({
      sessionId: session.id,
      userId: session.userId,
      organisationId: session.organisationId,
    });
    const accessToken = this.tokens.signSupportAccess(
      session.userId,
      session.id,
      { sub: caller.id, email: caller.email },
      endsAt,
    );
    return { accessToken, endsAt: endsAt.toISOString() };
  }

  /**
   * DELETE /api/support-access/{id}: the E-Support account that asked, or the organisation's site admins, end it:
   * a running session at once (on every instance: the session check reads its state on each call), an unstarted
   * request before it is used.
   */
  async end(caller: AuthUser, id: number, client: ClientInfo): Promise<SupportAccessItem> {
    const row = await this.requests.findOneBy(
      isSupport(caller) ? { id, supportUserId: caller.id } : { id, organisationId: caller.organisationId },
    );
    if (!row) throw AppException.notFound('Support access request not found.');
    const reason: SupportAccessEndReason = isSupport(caller) ? 'stopped' : 'ended-by-admin';
    if (row.status === 'active') {
      if (!(await this.finish(id, reason, caller, client))) throw conflict(M.NOT_ACTIVE);
      return this.item(id);
    }
    const now = new Date(Date.now());
    await this.requests.manager.transaction(async (tx) => {
      const updated = await tx
        .createQueryBuilder()
        .update(SupportAccess)
        .set({ status: 'ended', endedAt: now, endReason: reason })
        .where('id = :id AND status IN (:...open) AND "expiresAt" > :now', { id, open: ['pending', 'approved'], now })
        .execute();
      if (!updated.affected) throw conflict(M.NOT_ACTIVE);
      const member = await tx.getRepository(User).findOneByOrFail({ id: row.userId });
      await this.audit.record(tx, {
        type: 'SUPPORT_ACCESS_ENDED',
        actor: caller,
        target: member,
        client,
        supportAccessId: id,
        summary: `Support access request for ${member.email} withdrawn before it started (${SUPPORT_ACCESS_END_REASONS[reason]})`,
      });
    });
    return this.item(id);
  }

  /**
   * Ends a running support access once (parallel ends record it once): its state first, which refuses its session
   * on the next call on every instance, with the audit event (the `support_access.ended` webhook) and the member's
   * e-mail in the same transaction; then its session, whose sockets close. Answers whether this call ended it.
   */
  async finish(id: number, reason: SupportAccessEndReason, by: Ender, client?: ClientInfo): Promise<boolean> {
    const now = new Date(Date.now());
    const ended = await this.requests.manager.transaction(async (tx) => {
      const updated = await tx
        .getRepository(SupportAccess)
        .update({ id, status: 'active' }, { status: 'ended', endedAt: now, endReason: reason });
      if (!updated.affected) return null;
      const row = await tx.getRepository(SupportAccess).findOneByOrFail({ id });
      const member = await tx.getRepository(User).findOneByOrFail({ id: row.userId });
      await this.audit.record(tx, {
        type: 'SUPPORT_ACCESS_ENDED',
        actor: by,
        target: member,
        client: client ?? null,
        supportAccessId: id,
        summary: `Support access as ${member.email} by ${row.supportUserEmail} ended: ${SUPPORT_ACCESS_END_REASONS[reason]}`,
      });
      await this.mail.send(this.endedMail(member, row, now), tx);
      return row;
    });
    if (!ended) return false;
    if (ended.sessionId) await this.sessions.end(ended.sessionId, 'support-ended');
    return true;
  }

  /** Ends the support accesses past their end, and marks the requests past their lapse expired; answers how many ended. */
  async sweep(now = Date.now()): Promise<number> {
    const at = new Date(now);
    await this.requests
      .createQueryBuilder()
      .update(SupportAccess)
      .set({ status: 'expired' })
      .where('status IN (:...open) AND "expiresAt" <= :at', { open: ['pending', 'approved'], at })
      .execute();
    const due = await this.requests.findBy({ status: 'active', endsAt: LessThanOrEqual(at) });
    let ended = 0;
    for (const row of due) if (await this.finish(row.id, 'time-limit', 'service')) ended++;
    return ended;
  }

  /** A session ended by another path: its support access (when it is one still running) ends with it. */
  private async sessionEnded(sessionId: string): Promise<void> {
    const row = await this.requests.findOneBy({ sessionId, status: 'active' });
    if (!row) return;
    const org = await this.organisations.findOneBy({ id: row.organisationId });
    const reason: SupportAccessEndReason =
      row.endsAt && row.endsAt.getTime() <= Date.now()
        ? 'time-limit'
        : org?.supportAccess === 'never'
          ? 'access-off'
          : 'session-ended';
    await this.finish(row.id, reason, 'service');
  }

  /** The organisation turned support access off: its running sessions end now. */
  private async policyChanged(organisationId: number): Promise<void> {
    const org = await this.organisations.findOneBy({ id: organisationId });
    if (org?.supportAccess !== 'never') return;
    const running = await this.requests.findBy({ organisationId, status: 'active' });
    for (const row of running) await this.finish(row.id, 'access-off', 'service');
  }

  private failed(e: unknown): void {
    this.logger.error(`Ending a support access failed: ${(e as Error).message}`);
  }

  private async assertAllowed(organisationId: number): Promise<void> {
    const org = await this.organisations.findOneBy({ id: organisationId });
    if (!org || org.supportAccess === 'never') throw AppException.forbidden(M.OFF, ERROR_CODES.SUPPORT_ACCESS_OFF);
  }

  private async item(id: number): Promise<SupportAccessItem> {
    const row = await this.requests.findOneByOrFail({ id });
    const people = await this.users.findBy({ id: In([row.userId, row.supportUserId]) });
    const org = await this.organisations.findOneBy({ id: row.organisationId });
    return toItem(row, new Map(people.map((u) => [u.id, u])), org?.name ?? '', Date.now());
  }

  /** A moment as the product's e-mails write it. */
  private when(at: Date): string {
    return formatMailDateTime(at, this.config.insightsTimeZone);
  }

  private requestMail(admin: User, caller: AuthUser, member: User, row: SupportAccess) {
    return {
      to: admin.email,
      subject: M.MAIL_REQUEST_SUBJECT,
      text: [
        `${caller.email} (E-Support) asks to act as ${member.email} in your organisation's portal, for at most 60 minutes.`,
        `Reason given: ${row.reason}`,
        '',
        `Approve or refuse it before ${this.when(row.expiresAt)}, when it lapses:`,
        `${this.config.publicUrl}/users/support-access`,
      ].join('\n'),
    };
  }

  private endedMail(member: User, row: SupportAccess, endedAt: Date) {
    return {
      to: member.email,
      subject: M.MAIL_ENDED_SUBJECT,
      text: [
        `${row.supportUserEmail} (E-Support) acted as you in the portal from ${this.when(row.startedAt ?? endedAt)} to ${this.when(endedAt)}.`,
        `Reason given: ${row.reason}`,
        `The session ended because it ${SUPPORT_ACCESS_END_REASONS[row.endReason ?? 'stopped']}.`,
        '',
        "Your organisation's audit log lists everything done in it. If you did not expect this, tell your site admin.",
      ].join('\n'),
    };
  }
}

function conflict(message: string, code: ErrorCode = ERROR_CODES.SUPPORT_ACCESS_STATE): AppException {
  return new AppException(HttpStatus.CONFLICT, code, message);
}

function party(u: User | undefined, id: number, email: string): SupportAccessParty {
  return { id, email: u?.email ?? email, firstName: u?.firstName ?? '', lastName: u?.lastName ?? '' };
}

/** The request as listed: a pending or approved one past its lapse reads expired, an active one past its end ended. */
function toItem(r: SupportAccess, people: Map<number, User>, organisationName: string, now: number): SupportAccessItem {
  let status = r.status;
  if ((status === 'pending' || status === 'approved') && r.expiresAt.getTime() <= now) status = 'expired';
  if (status === 'active' && r.endsAt && r.endsAt.getTime() <= now) status = 'ended';
  return {
    id: r.id,
    organisationId: r.organisationId,
    organisationName,
    supportUser: party(people.get(r.supportUserId), r.supportUserId, r.supportUserEmail),
    user: party(people.get(r.userId), r.userId, ''),
    reason: r.reason,
    status,
    requestedAt: r.requestedAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    endsAt: r.endsAt?.toISOString() ?? null,
    endedAt: r.endedAt?.toISOString() ?? null,
  };
}
