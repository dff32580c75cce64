import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation, managedOrganisationId } from '../../platform/web/auth-user';
import { randomToken, sha256 } from '../../platform/crypto/secrets';
import { ClientInfo } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { lockRow } from '../../platform/database/locks';
import { MailService } from '../../platform/mail/mail.service';
import { checkAccountAction, checkNewAccountRole, parseRoleIds, RoleChoice } from '../../shared/identity/account-rules';
import {
  BulkInviteResult,
  INVITATION_LIMITS as L,
  INVITATION_MESSAGES as M,
  InvitationItem,
  InvitationList,
} from '../../shared/administration/invitations';
import { formatMailDateTime } from '../../shared/display-formats';
import { ERROR_CODES, PRODUCT_NAME } from '../../shared/messages';
import { effectiveRoles, Role, roleNames } from '../../shared/roles';
import { accountEmail, AccountLifecycleService } from '../../identity/users';
import { InvitationListQueryDto, InviteDto } from './dto/invitation.dto';
import { Invitation } from './entities/invitation.entity';
import { BulkFile } from './bulk-file';
import { InvitationStore, statusWhere } from './invitation-store';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One invitation to make: its address and role as given, before the rules are checked. */
interface Wanted {
  email: string;
  choice: RoleChoice;
}

/**
 * Invitations, the organisation's administrators' side (docs/api.md, 'Invitations'): invite, in bulk, list, resend,
 * withdraw; the invited person's side is InvitationAcceptanceService. Inviting follows the account-action rule of
 * `shared/identity/account-rules.ts` (who may give which role, in which organisation) and the lifecycle's address
 * rule, so an invitation is refused exactly where Create User would be, with the same non-revealing answer for
 * addresses of other organisations.
 */
@Injectable()
export class InvitationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: AccountLifecycleService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    private readonly store: InvitationStore,
  ) {}

  async invite(caller: AuthUser, dto: InviteDto, client: ClientInfo, organisationId?: number): Promise<InvitationItem> {
    const org = await this.organisationFor(caller, organisationId);
    const choice = this.choiceOf(caller, org.id, dto.roleId, dto.admin ?? false);
    const { email, problem } = accountEmail(dto.email);
    if (problem !== null) throw AppException.badRequest(problem);
    const days = dto.expiresInDays ?? L.EXPIRES_IN_DAYS_DEFAULT;
    const made = await this.db.transaction(async (tx) => {
      await lockRow(tx, Organisation, org.id);
      return this.create(tx, caller, org, { email, choice }, days, client);
    });
    return this.store.item(made);
  }

  /**
   * A CSV of `email,role` rows, each invited, skipped (an account or open invitation of this organisation has the
   * address already, or the file repeats it) or refused (a malformed address, an unknown role or one the caller may
   * not give, an address the organisation may not use), in one transaction under the organisation's row lock.
   */
  async bulk(
    caller: AuthUser,
    body: unknown,
    client: ClientInfo,
    organisationId?: number,
    expiresInDays: number = L.EXPIRES_IN_DAYS_DEFAULT,
  ): Promise<BulkInviteResult[]> {
    const org = await this.organisationFor(caller, organisationId);
    if (!(body instanceof BulkFile)) throw AppException.badRequest(M.BULK_NOT_CSV);
    if (body.problem !== null) throw AppException.badRequest(body.problem);
    return this.db.transaction(async (tx) => {
      await lockRow(tx, Organisation, org.id);
      const seen = new Set<string>();
      const results: BulkInviteResult[] = [];
      for (const { row, email: raw, role } of body.rows) {
        const { email, problem } = accountEmail(raw);
        if (problem !== null) {
          results.push({ row, email: raw.slice(0, 200), status: 'refused', reason: problem });
          continue;
        }
        if (seen.has(email)) {
          results.push({ row, email, status: 'skipped', reason: M.BULK_DUPLICATE_ROW });
          continue;
        }
        seen.add(email);
        if (!role) {
          results.push({ row, email, status: 'refused', reason: M.BULK_UNKNOWN_ROLE });
          continue;
        }
        try {
          const choice = this.choiceOf(caller, org.id, role.roleId, role.admin);
          await this.create(tx, caller, org, { email, choice }, expiresInDays, client);
          results.push({ row, email, status: 'invited' });
        } catch (e) {
          if (!(e instanceof AppException)) throw e;
          const reason = (e.getResponse() as { message: string }).message;
          const skipped = e.code === ERROR_CODES.DUPLICATE_EMAIL || e.code === ERROR_CODES.INVITATION_EXISTS;
          results.push({ row, email, status: skipped ? 'skipped' : 'refused', reason });
        }
      }
      return results;
    });
  }

  async list(caller: AuthUser, query: InvitationListQueryDto): Promise<InvitationList> {
    const org = await this.organisationFor(caller, query.organisationId);
    const now = this.store.now();
    const pageSize = query.pageSize ?? L.LIST_PAGE_SIZE_DEFAULT;
    const repo = this.db.getRepository(Invitation);
    const [rows, totalRecords] = await repo.findAndCount({
      where: { organisationId: org.id, ...statusWhere(query.status, now) },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: ((query.page ?? 1) - 1) * pageSize,
      take: pageSize,
    });
    const pendingInvitations = await repo.countBy({ organisationId: org.id, ...statusWhere('pending', now) });
    const activeUsers = await this.lifecycle.countActive(org.id);
    const allowedUsers = org.isVendor ? null : org.allowedUsersNumber;
    return {
      items: rows.map((r) => this.store.item(r)),
      totalRecords,
      seats: {
        allowedUsers,
        activeUsers,
        freeSeats: allowedUsers === null ? null : Math.max(0, allowedUsers - activeUsers),
        pendingInvitations,
      },
    };
  }

  /** A new link (the old one stops working) and a new expiry as long as the first, e-mailed again. */
  async resend(caller: AuthUser, id: number, client: ClientInfo): Promise<InvitationItem> {
    const token = randomToken();
    const updated = await this.db.transaction(async (tx) => {
      const { invitation, org } = await this.manageable(tx, caller, id);
      const expiresAt = new Date(this.store.now().getTime() + invitation.expiresInDays * DAY_MS);
      const written = await tx
        .getRepository(Invitation)
        .update(
          { id, tokenHash: invitation.tokenHash, acceptedAt: IsNull(), revokedAt: IsNull() },
          { tokenHash: sha256(token), expiresAt, invitedById: caller.id, invitedByName: await this.nameOf(tx, caller) },
        );
      if (!written.affected) throw AppException.conflict(M.NOT_OPEN, ERROR_CODES.INVITATION_NOT_OPEN);
      const after = await tx.getRepository(Invitation).findOneByOrFail({ id });
      await this.record(tx, caller, after, client, 'INVITATION_RESENT', `Invitation of ${after.email} resent`);
      await this.sendLink(tx, after, org, token);
      return after;
    });
    return this.store.item(updated);
  }

  /** Withdraws an open (pending or expired) invitation: its link stops working. */
  async revoke(caller: AuthUser, id: number, client: ClientInfo): Promise<{ success: true }> {
    await this.db.transaction(async (tx) => {
      const { invitation } = await this.manageable(tx, caller, id);
      const written = await tx
        .getRepository(Invitation)
        .update({ id, acceptedAt: IsNull(), revokedAt: IsNull() }, { revokedAt: this.store.now() });
      if (!written.affected) throw AppException.conflict(M.NOT_OPEN, ERROR_CODES.INVITATION_NOT_OPEN);
      const summary = `Invitation of ${invitation.email} withdrawn`;
      await this.record(tx, caller, invitation, client, 'INVITATION_REVOKED', summary);
    });
    return { success: true };
  }

  // ---- rules ----

  /** The caller's organisation, or the one E-Support names; another organisation is a 404 to everyone else. */
  private async organisationFor(caller: AuthUser, organisationId?: number): Promise<Organisation> {
    const org = await this.db
      .getRepository(Organisation)
      .findOneBy({ id: managedOrganisationId(caller, organisationId) });
    if (!org) throw AppException.notFound('Organisation not found.');
    return org;
  }

  /** The role the caller may give in this organisation (the account-action rule), or a 400/403. */
  private choiceOf(caller: AuthUser, organisationId: number, roleId: number, admin: boolean): RoleChoice {
    const choice = parseRoleIds(admin ? [roleId, Role.ADMINISTRATOR] : [roleId]);
    if (typeof choice === 'string') throw AppException.badRequest(choice);
    if (choice.mainRole === Role.E_SUPPORT) throw AppException.forbidden(M.SUPPORT_ROLE);
    const refused = checkNewAccountRole(caller, choice, organisationId);
    if (refused) throw AppException.forbidden(refused);
    return choice;
  }

  /**
   * An invitation the caller may resend or withdraw: of an organisation it reaches (else a 404), for an account it
   * could act on (the account-action rule: E-Support only on site admins, administrators not on site admins).
   */
  private async manageable(
    tx: EntityManager,
    caller: AuthUser,
    id: number,
  ): Promise<{ invitation: Invitation; org: Organisation }> {
    const invitation = await tx.getRepository(Invitation).findOneBy({ id });
    if (!invitation || !canAccessOrganisation(caller, invitation.organisationId))
      throw AppException.notFound(M.NOT_FOUND);
    const holder = {
      id: 0,
      organisationId: invitation.organisationId,
      roleId: invitation.roleId as Role,
      isAdministrator: invitation.isAdministrator,
    };
    const refused = checkAccountAction(caller, holder, 'access');
    if (refused) throw AppException.forbidden(refused);
    const org = await tx.getRepository(Organisation).findOneByOrFail({ id: invitation.organisationId });
    return { invitation, org };
  }

  /**
   * One invitation, inside the caller's transaction holding the organisation's row lock: the address rule, no open
   * invitation of this organisation for the address, the row, its audit event and its e-mail.
   */
  private async create(
    tx: EntityManager,
    caller: AuthUser,
    org: Organisation,
    wanted: Wanted,
    days: number,
    client: ClientInfo,
  ): Promise<Invitation> {
    await this.lifecycle.assertAddressAvailable(tx, { type: 'user', caller }, org.id, wanted.email);
    const repo = tx.getRepository(Invitation);
    if (
      await repo.existsBy({ organisationId: org.id, email: wanted.email, ...statusWhere('pending', this.store.now()) })
    )
      throw AppException.conflict(M.EXISTS, ERROR_CODES.INVITATION_EXISTS);
    const token = randomToken();
    const made = await repo.save(
      repo.create({
        organisationId: org.id,
        email: wanted.email,
        roleId: wanted.choice.mainRole,
        isAdministrator: wanted.choice.isAdministrator,
        tokenHash: sha256(token),
        expiresInDays: days,
        expiresAt: new Date(this.store.now().getTime() + days * DAY_MS),
        invitedById: caller.id,
        invitedByName: await this.nameOf(tx, caller),
        acceptedAt: null,
        acceptedUserId: null,
        revokedAt: null,
      }),
    );
    const roles = roleNames(effectiveRoles(wanted.choice.mainRole, wanted.choice.isAdministrator));
    await this.record(tx, caller, made, client, 'INVITATION_CREATED', `${made.email} invited as ${roles}`, roles);
    await this.sendLink(tx, made, org, token);
    return made;
  }

  private async nameOf(tx: EntityManager, caller: AuthUser): Promise<string> {
    const user = await tx.getRepository(User).findOne({
      select: { firstName: true, lastName: true, email: true },
      where: { id: caller.id },
    });
    const name = `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim();
    return (name || caller.email).slice(0, 201);
  }

  private async sendLink(tx: EntityManager, invitation: Invitation, org: Organisation, token: string): Promise<void> {
    const roles = roleNames(effectiveRoles(invitation.roleId as Role, invitation.isAdministrator));
    await this.mail.send(
      {
        to: invitation.email,
        subject: M.SUBJECT(org.name),
        text:
          `${invitation.invitedByName} has invited you to join ${org.name} on ${PRODUCT_NAME} as ${roles}.\n\n` +
          `Accept the invitation: ${this.config.publicUrl}/invite?token=${token}\n\n` +
          `The link works once and until ${formatMailDateTime(invitation.expiresAt, this.config.insightsTimeZone)}. ` +
          'If it has expired, ask the person who invited you to send a new one. ' +
          'If you did not expect this invitation, ignore this message.',
      },
      tx,
    );
  }

  private record(
    tx: EntityManager,
    caller: AuthUser,
    invitation: Invitation,
    client: ClientInfo,
    type: 'INVITATION_CREATED' | 'INVITATION_RESENT' | 'INVITATION_REVOKED',
    summary: string,
    roles?: string,
  ): Promise<void> {
    return this.audit.record(tx, {
      type,
      actor: caller,
      organisationId: invitation.organisationId,
      client,
      summary,
      changes: roles ? { email: { from: null, to: invitation.email }, roles: { from: null, to: roles } } : undefined,
    });
  }
}
