import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { publish } from '../../platform/events';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, isSupport } from '../../platform/web/auth-user';
import { ClientInfo } from '../../platform/web/request-context';
import { TokenService } from '../../identity/credentials/token.service';
import { User } from '../../platform/database/entities/user.entity';
import { insertOnly } from '../../platform/database/insert-only';
import { lockRow } from '../../platform/database/locks';
import { Session, SESSION_STARTED } from '../../identity/sessions';
import { ERROR_CODES } from '../../shared/messages';
import {
  SUPPORT_ACCESS_END_REASONS,
  SUPPORT_ACCESS_LIMITS as L,
  SUPPORT_ACCESS_MESSAGES as M,
  SupportAccessEndReason,
  SupportAccessItem,
  SupportAccessStarted,
} from '../../shared/portal/support-access';
import { SupportAccess } from './entities/support-access.entity';
import { SupportAccessEnding } from './support-access-ending.service';
import { conflict, SupportAccessQueries } from './support-access-queries.service';

/**
 * The bounded session of support access (docs/support-access.md): the E-Support account that asked starts a session
 * as the member (at most 60 minutes, never extended, one at a time); it, or the organisation's site admins, end it,
 * or withdraw a request not yet started. What the session may do is the guards' (RolesGuard:
 * `refusedInSupportSession`); who acts is read with the session on every call (SessionAuthService), and every audit
 * event made in it names both (AuditService).
 */
@Injectable()
export class SupportAccessSessions {
  constructor(
    @InjectRepository(SupportAccess) private readonly requests: Repository<SupportAccess>,
    private readonly audit: AuditService,
    @Inject(EventEmitter2) private readonly events: EventEmitter2,
    private readonly tokens: TokenService,
    private readonly queries: SupportAccessQueries,
    private readonly ending: SupportAccessEnding,
  ) {}

  /**
   * POST /api/support-access/{id}/start: the E-Support account that asked opens a session as the member, once
   * approved and before the request lapses, while it has no other running. Parallel starts queue on the E-Support
   * account's row: exactly one opens a session.
   */
  async start(caller: AuthUser, id: number, client: ClientInfo): Promise<SupportAccessStarted> {
    const found = await this.requests.findOneBy({ id, supportUserId: caller.id });
    if (!found) throw AppException.notFound('Support access request not found.');
    await this.queries.assertAllowed(found.organisationId);
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
    publish(this.events, SESSION_STARTED, {
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
      if (!(await this.ending.finish(id, reason, caller, client))) throw conflict(M.NOT_ACTIVE);
      return this.queries.item(id);
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
    return this.queries.item(id);
  }
}
