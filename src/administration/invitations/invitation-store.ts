import { HttpStatus, Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, FindOptionsWhere, IsNull, LessThanOrEqual, MoreThan, Not } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { sha256 } from '../../platform/crypto/secrets';
import { User } from '../../platform/database/entities/user.entity';
import { RoleChoice } from '../../shared/identity/account-rules';
import { INVITATION_MESSAGES as M, InvitationItem, InvitationStatus } from '../../shared/administration/invitations';
import { ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';
import { Invitation } from './entities/invitation.entity';
import { INVITATION_CLOCK, InvitationClock, systemInvitationClock } from './invitation-clock';

const invalid = () => new AppException(HttpStatus.NOT_FOUND, ERROR_CODES.INVITATION_INVALID, M.INVALID);

/**
 * The invitations' rows as both sides read and change them: the organisation's administrators and the invited
 * person. An invitation's status follows from its dates and the clock.
 */
@Injectable()
export class InvitationStore {
  private readonly clock: InvitationClock;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
    @Optional() @Inject(INVITATION_CLOCK) clock?: InvitationClock,
  ) {
    this.clock = clock ?? systemInvitationClock;
  }

  now(): Date {
    return this.clock.now();
  }

  /** The pending invitation of a link, or INVITATION_INVALID. */
  async open(token: string): Promise<Invitation> {
    const invitation = await this.db.getRepository(Invitation).findOneBy({ tokenHash: sha256(token) });
    if (!invitation || this.statusOf(invitation) !== 'pending') throw invalid();
    return invitation;
  }

  /** The pending invitation of this organisation for the address (sign-in through its provider), or null. */
  async openFor(organisationId: number, email: string): Promise<{ id: number; choice: RoleChoice } | null> {
    const invitation = await this.db
      .getRepository(Invitation)
      .findOneBy({ organisationId, email, ...statusWhere('pending', this.clock.now()) });
    if (!invitation) return null;
    return {
      id: invitation.id,
      choice: { mainRole: invitation.roleId as Role, isAdministrator: invitation.isAdministrator },
    };
  }

  /**
   * Marks the invitation accepted with a conditional update (still pending, and still this link when one is given):
   * when another acceptance, a resend or a withdrawal came first, INVITATION_INVALID rolls the transaction back.
   */
  async claim(tx: EntityManager, invitationId: number, token?: string): Promise<void> {
    const now = this.clock.now();
    const claimed = await tx.getRepository(Invitation).update(
      {
        id: invitationId,
        ...(token !== undefined ? { tokenHash: sha256(token) } : {}),
        ...statusWhere('pending', now),
      },
      { acceptedAt: now },
    );
    if (!claimed.affected) throw invalid();
  }

  /** The account a claimed invitation created, and the audit event of the acceptance. */
  async recordAccepted(tx: EntityManager, invitationId: number, user: User): Promise<void> {
    await tx.getRepository(Invitation).update({ id: invitationId }, { acceptedUserId: user.id });
    const invitation = await tx.getRepository(Invitation).findOneByOrFail({ id: invitationId });
    await this.audit.record(tx, {
      type: 'INVITATION_ACCEPTED',
      actor: user,
      target: user,
      organisationId: invitation.organisationId,
      summary: `${invitation.email} accepted the invitation of ${invitation.invitedByName}`,
    });
  }

  statusOf(invitation: Invitation): InvitationStatus {
    if (invitation.revokedAt) return 'revoked';
    if (invitation.acceptedAt) return 'accepted';
    return invitation.expiresAt <= this.clock.now() ? 'expired' : 'pending';
  }

  item(r: Invitation): InvitationItem {
    return {
      id: r.id,
      email: r.email,
      roleId: r.roleId,
      admin: r.isAdministrator,
      status: this.statusOf(r),
      expiresAt: r.expiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      invitedBy: r.invitedByName || null,
      acceptedAt: r.acceptedAt?.toISOString() ?? null,
      revokedAt: r.revokedAt?.toISOString() ?? null,
    };
  }
}

/** The condition of a status, at `now` (the status follows from the dates). */
export function statusWhere(status: InvitationStatus | undefined, now: Date): FindOptionsWhere<Invitation> {
  switch (status) {
    case 'pending':
      return { acceptedAt: IsNull(), revokedAt: IsNull(), expiresAt: MoreThan(now) };
    case 'expired':
      return { acceptedAt: IsNull(), revokedAt: IsNull(), expiresAt: LessThanOrEqual(now) };
    case 'accepted':
      return { acceptedAt: Not(IsNull()) };
    case 'revoked':
      return { revokedAt: Not(IsNull()) };
    default:
      return {};
  }
}
