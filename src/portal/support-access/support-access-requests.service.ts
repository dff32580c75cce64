import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { ClientInfo } from '../../platform/web/request-context';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { NotificationsService } from '../notifications';
import { ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';
import {
  SUPPORT_ACCESS_LIMITS as L,
  SUPPORT_ACCESS_MESSAGES as M,
  SupportAccessCreated,
  SupportAccessItem,
  SupportAccessStatus,
} from '../../shared/portal/support-access';
import { SupportAccessRequestDto } from './dto/support-access.dto';
import { SupportAccess } from './entities/support-access.entity';
import { SupportAccessMail } from './support-access-mail';
import { conflict, SupportAccessQueries } from './support-access-queries.service';

/**
 * Support access asked and decided (docs/support-access.md): an E-Support account asks to act as a member; the
 * organisation's policy refuses it, approves it at once, or leaves it to its site admins, who are e-mailed and
 * notified, and approve or refuse it before it lapses. Every step is audited.
 */
@Injectable()
export class SupportAccessRequests {
  constructor(
    @InjectRepository(SupportAccess) private readonly requests: Repository<SupportAccess>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
    private readonly mail: SupportAccessMail,
    private readonly notifications: NotificationsService,
    private readonly queries: SupportAccessQueries,
  ) {}

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
      for (const admin of admins) await this.mail.requested(tx, admin, caller, member, row);
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

  /** POST /api/support-access/{id}/approve and …/refuse: the organisation's site admins, while it is pending. */
  async decide(caller: AuthUser, id: number, approve: boolean, client: ClientInfo): Promise<SupportAccessItem> {
    const row = await this.requests.findOneBy({ id, organisationId: caller.organisationId });
    if (!row) throw AppException.notFound('Support access request not found.');
    if (approve) await this.queries.assertAllowed(row.organisationId);
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
    return this.queries.item(id);
  }
}
