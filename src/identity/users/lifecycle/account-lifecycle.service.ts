import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditChanges, AuditRecord, AuditService } from '../../../platform/audit';
import { publishInTransaction } from '../../../platform/events';
import { AppException } from '../../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation } from '../../../platform/web/auth-user';
import { ClientInfo } from '../../../platform/web/request-context';
import { User } from '../../../platform/database/entities/user.entity';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { lockRow } from '../../../platform/database/locks';
import { isUniqueViolation } from '../../../platform/database/unique-violation';
import { maySignIn } from '../../credentials/may-sign-in';
import { VerifiedDomainsService } from '../../domains';
import { SessionsService } from '../../sessions';
import { AccountEventType } from '../../../shared/identity/account-events';
import {
  checkAccountAction,
  checkNewAccountRole,
  checkRoleChange,
  RoleChoice,
} from '../../../shared/identity/account-rules';
import { emailDomain } from '../../../shared/identity/domains';
import { ACCOUNT_MESSAGES, ERROR_CODES } from '../../../shared/messages';
import { effectiveRoles, Role, roleNames } from '../../../shared/roles';
import { SCIM_MESSAGES } from '../../../shared/identity/scim';
import { AccountActor, accountEvent, auditActor, eventActor } from './account-actor';
import { accountEmail } from './account-email';
import { ACCOUNT_CHANGED } from './account-changed';
import { AccountErasure } from './account-erasure';

/** A new account: the organisation it belongs to and the row's own values. */
export interface NewAccount {
  organisationId: number;
  email: string;
  roleId: Role;
  isAdministrator?: boolean;
  passwordHash?: string | null;
  firstName?: string;
  lastName?: string;
  jobTitle?: string;
  department?: string;
  isDisabled?: boolean;
  isMFAEnforced?: boolean;
  isSSO?: boolean;
  mustChangePassword?: boolean;
  passwordChangedAt?: Date | null;
  externalId?: string | null;
  directoryUserName?: string | null;
  managedBy?: string | null;
}

/** The columns a change of profile or access may write (roles have their own call and rule). */
export type AccountChanges = Partial<
  Pick<
    User,
    | 'email'
    | 'directoryUserName'
    | 'firstName'
    | 'lastName'
    | 'jobTitle'
    | 'department'
    | 'externalId'
    | 'managedBy'
    | 'isDisabled'
  >
>;

/** What a source adds to a creation: its own audit wording, and writes that commit with the account (e-mails). */
export interface CreateOptions {
  client?: ClientInfo | null;
  /** Replaces parts of the USER_CREATED audit event (Create Site Admin records ORGANISATION_CREATED). */
  audit?: Partial<Pick<AuditRecord, 'type' | 'summary' | 'changes' | 'organisationId'>>;
  /** Runs in the creation's transaction once the row exists: the welcome e-mail, a provider's link. */
  within?: (tx: EntityManager, created: User) => Promise<void>;
}

export type { AccountActor } from './account-actor';

export function activeUsersLimitMessage(allowed: number): string {
  return `Your organisation is allowed only ${allowed} active user(s), and that many are active already. Disable another user first, or contact support to raise the limit.`;
}

/**
 * The one owner of an account's life (docs/architecture.md, 'An account's life'): it creates accounts, switches
 * their access on and off, changes their roles, MFA enforcement, profile and address, and deletes them, whoever asks. It holds the
 * rules every source shares: the e-mail rule (`account-email.ts`), the address rule (an address is unique, and one
 * on a domain another organisation verified is not this organisation's to use), the active-user limit under the
 * organisation's row lock, the account-action rule for the pages, ending sessions and sockets when access goes,
 * the audit event, and one ACCOUNT_CHANGED event per change, each in the change's transaction.
 */
@Injectable()
export class AccountLifecycleService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly domains: VerifiedDomainsService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    @Inject(EventEmitter2) private readonly emitter: EventEmitter2,
    private readonly erasure: AccountErasure,
  ) {}

  countActive(organisationId: number, manager: EntityManager = this.db.manager): Promise<number> {
    return manager.getRepository(User).countBy({ organisationId, isDisabled: false, isBlocked: false });
  }

  /**
   * Refuses one more active user when the organisation has its allowed number already (the vendor has no
   * limit). Takes the organisation's row lock inside `tx` first (`database/locks.ts`; on SQLite the serialiser
   * gives the transaction the connection alone), so parallel creations and re-enablings from any source queue and
   * the count each sees includes the others'.
   */
  async assertRoomForActiveUser(tx: EntityManager, organisationId: number): Promise<Organisation> {
    const org = await lockRow(tx, Organisation, organisationId);
    if (!org) throw AppException.notFound('Organisation not found.');
    if (!org.isVendor && (await this.countActive(org.id, tx)) >= org.allowedUsersNumber) {
      throw AppException.conflict(activeUsersLimitMessage(org.allowedUsersNumber), ERROR_CODES.ACTIVE_USERS_LIMIT);
    }
    return org;
  }

  /**
   * A new account, with its audit event and `user.created`, in `tx` when given (the caller's transaction maps a
   * unique-index race through `addressRace`), else in a transaction of its own.
   */
  async create(actor: AccountActor, input: NewAccount, options: CreateOptions = {}, tx?: EntityManager): Promise<User> {
    const checked = accountEmail(input.email);
    if (checked.problem !== null) throw AppException.badRequest(checked.problem);
    const email = checked.email;
    if (actor.type === 'user') {
      const choice = { mainRole: input.roleId, isAdministrator: !!input.isAdministrator };
      const refused = checkNewAccountRole(actor.caller, choice, input.organisationId);
      if (refused) throw AppException.forbidden(refused);
    }
    const run = async (tx: EntityManager): Promise<User> => {
      await this.assertAddressAvailable(tx, actor, input.organisationId, email);
      if (!input.isDisabled) await this.assertRoomForActiveUser(tx, input.organisationId);
      else if (!(await lockRow(tx, Organisation, input.organisationId))) throw AppException.notFound();
      const repo = tx.getRepository(User);
      const created = await repo.save(
        repo.create({ ...input, email, isAdministrator: input.isAdministrator ?? false }),
      );
      await this.record(tx, actor, created, options.client, {
        type: 'USER_CREATED',
        summary: `User ${created.email} created as ${roleNames(created.roles)}`,
        changes: {
          roles: { from: null, to: roleNames(created.roles) },
          active: { from: null, to: maySignIn(created) },
        },
        ...options.audit,
      });
      await this.emit(tx, 'user.created', actor, created);
      await options.within?.(tx, created);
      return created;
    };
    if (tx) return run(tx);
    try {
      return await this.db.transaction(run);
    } catch (e) {
      throw await this.addressRace(e, actor, input.organisationId, email);
    }
  }

  /** Switches an account's access on or off: off ends its sessions and sockets, on counts under the limit. */
  async setAccess(
    actor: AccountActor,
    target: User,
    active: boolean,
    client?: ClientInfo | null,
    tx?: EntityManager,
  ): Promise<User> {
    if (actor.type === 'user') {
      const refused = checkAccountAction(actor.caller, target, 'access');
      if (refused) throw AppException.forbidden(refused);
      // The directory's accounts have their access switched there: the next synchronisation would undo it here.
      if (target.managedBy)
        throw AppException.forbidden(SCIM_MESSAGES.DIRECTORY_MANAGED_ACCESS, ERROR_CODES.DIRECTORY_MANAGED);
    }
    return this.change(actor, target, { isDisabled: !active }, client, tx);
  }

  /**
   * Changes an account's profile, address or access in one write, as the directory sends them: a new address
   * passes the e-mail and address rules, enabling counts under the limit, disabling ends every session and socket.
   * Audited as an access change and a profile change; `user.deactivated`/`user.reactivated` and `user.updated`.
   * Re-reads the account inside the transaction, so parallel changes see each other.
   */
  async change(
    actor: AccountActor,
    target: User,
    next: AccountChanges,
    client?: ClientInfo | null,
    tx?: EntityManager,
  ): Promise<User> {
    let email = next.email;
    if (email !== undefined) {
      const checked = accountEmail(email);
      if (checked.problem !== null) throw AppException.badRequest(checked.problem);
      email = checked.email;
    }
    const run = async (tx: EntityManager): Promise<User> => {
      const repo = tx.getRepository(User);
      const current = await repo.findOneBy({ id: target.id });
      // An erased account is a tombstone: nothing brings it back.
      if (!current || current.erasedAt) throw AppException.notFound(ACCOUNT_MESSAGES.NOT_FOUND);
      const wanted: AccountChanges = { ...next, ...(email !== undefined ? { email } : {}) };
      const changes: AuditChanges = {};
      for (const [key, value] of Object.entries(wanted) as Array<[keyof AccountChanges, unknown]>)
        if (value !== undefined && current[key] !== value) changes[key] = { from: current[key], to: value };
      if (Object.keys(changes).length === 0) return current;
      if (changes.email) await this.assertAddressAvailable(tx, actor, current.organisationId, email!, current.id);
      const enabling = changes.isDisabled !== undefined && !wanted.isDisabled;
      const disabling = changes.isDisabled !== undefined && !!wanted.isDisabled;
      if (enabling && !current.isBlocked) await this.assertRoomForActiveUser(tx, current.organisationId);
      const values = Object.fromEntries(Object.keys(changes).map((k) => [k, wanted[k as keyof AccountChanges]]));
      // The access flag is part of the condition: of two parallel switches, one writes and the other finds it done.
      const written = await repo.update(
        changes.isDisabled ? { id: current.id, isDisabled: current.isDisabled } : { id: current.id },
        values,
      );
      if (!written.affected) return current;
      if (disabling) await this.sessions.endAllForUsers([current.id], 'disabled', undefined, tx);
      const after = await repo.findOneByOrFail({ id: current.id });
      const by = actor.type === 'scim' ? ' by the directory' : '';
      if (enabling || disabling) {
        await this.record(tx, actor, current, client, {
          type: 'ACCESS_CHANGED',
          summary: `Access of ${current.email} ${disabling ? 'disabled' : 'enabled'}${by}`,
          changes: { disabled: changes.isDisabled },
        });
        await this.emit(tx, disabling ? 'user.deactivated' : 'user.reactivated', actor, after);
        delete changes.isDisabled;
      }
      if (Object.keys(changes).length > 0) {
        await this.record(tx, actor, current, client, {
          type: 'PROFILE_CHANGED',
          summary: `Profile of ${current.email} changed${by}`,
          changes,
        });
        await this.emit(tx, 'user.updated', actor, after);
      }
      return after;
    };
    if (tx) return run(tx);
    try {
      return await this.db.transaction(run);
    } catch (e) {
      throw email === undefined ? e : await this.addressRace(e, actor, target.organisationId, email);
    }
  }

  /** Changes an account's roles under the role rule of the roles page; `user.updated` when they differ. */
  async changeRoles(caller: AuthUser, target: User, choice: RoleChoice, client?: ClientInfo): Promise<void> {
    const refused = checkRoleChange(caller, target, choice);
    if (refused) throw AppException.forbidden(refused);
    const before = roleNames(target.roles);
    const after = roleNames(effectiveRoles(choice.mainRole, choice.isAdministrator));
    const actor: AccountActor = { type: 'user', caller };
    await this.db.transaction(async (tx) => {
      const repo = tx.getRepository(User);
      await repo.update({ id: target.id }, { roleId: choice.mainRole, isAdministrator: choice.isAdministrator });
      if (before === after) return;
      await this.record(tx, actor, target, client, {
        type: 'ROLE_CHANGED',
        summary: `Roles of ${target.email}: ${before} → ${after}`,
        changes: { roles: { from: before, to: after } },
      });
      await this.emit(tx, 'user.updated', actor, await repo.findOneByOrFail({ id: target.id }));
    });
  }

  /**
   * Enforces MFA on an account or stops enforcing it, under the account-action rule: its sessions end (it signs in
   * again under the new rule), and `user.updated` tells of it.
   */
  async setMfaEnforced(caller: AuthUser, target: User, enforced: boolean, client?: ClientInfo): Promise<void> {
    const refused = checkAccountAction(caller, target, 'mfa');
    if (refused) throw AppException.forbidden(refused);
    if (target.isMFAEnforced === enforced) return;
    const actor: AccountActor = { type: 'user', caller };
    await this.db.transaction(async (tx) => {
      const repo = tx.getRepository(User);
      await repo.update({ id: target.id }, { isMFAEnforced: enforced });
      await this.sessions.endAllForUsers([target.id], 'mfa-changed', undefined, tx);
      await this.record(tx, actor, target, client, {
        type: 'MFA_ENFORCEMENT_CHANGED',
        summary: `MFA ${enforced ? 'enforced' : 'no longer enforced'} for ${target.email}`,
        changes: { mfaEnforced: { from: target.isMFAEnforced, to: enforced } },
      });
      await this.emit(tx, 'user.updated', actor, await repo.findOneByOrFail({ id: target.id }));
    });
  }

  /** Deletes an account: every session and socket of it ends first, in the same transaction. */
  async remove(actor: AccountActor, target: User, client?: ClientInfo | null, tx?: EntityManager): Promise<void> {
    const run = async (tx: EntityManager): Promise<void> => {
      await this.sessions.endAllForUsers([target.id], 'disabled', undefined, tx);
      const gone = await tx.getRepository(User).findOneBy({ id: target.id });
      if (!gone) throw AppException.notFound(ACCOUNT_MESSAGES.NOT_FOUND);
      // remove (not delete) so that the user count cache hears of it and clears again when the transaction commits.
      await tx.getRepository(User).remove({ ...gone } as User);
      await this.record(tx, actor, gone, client, {
        type: 'USER_DELETED',
        summary: `User ${gone.email} removed${actor.type === 'scim' ? ' by the directory' : ''}`,
      });
      await this.emit(tx, 'user.deleted', actor, gone);
    };
    if (tx) return run(tx);
    return this.db.transaction(run);
  }

  /**
   * Erases a person (docs/privacy.md) as {@link AccountErasure} decides, and announces it as `user.erased` with the
   * id only, in one transaction. `self`: the person deletes their own account; otherwise an administrator erases it.
   */
  async erase(actor: AccountActor, target: User, self: boolean, client?: ClientInfo | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.erasure.erase(tx, actor, target, self, client);
      await publishInTransaction(this.emitter, ACCOUNT_CHANGED, {
        tx,
        event: {
          type: 'user.erased',
          organisationId: current.organisationId,
          actor: eventActor(actor, current),
          user: { id: current.id },
        },
      });
    });
  }

  /**
   * The address rule (docs/api.md, 'E-mail addresses'). An account the actor can see with this address is a
   * DUPLICATE_EMAIL; an address on a domain another organisation has verified, or an account the actor cannot see,
   * is one EMAIL_UNAVAILABLE, so the answer never tells which addresses another organisation holds.
   */
  async assertAddressAvailable(
    tx: EntityManager,
    actor: AccountActor,
    organisationId: number,
    email: string,
    exceptUserId?: number,
  ): Promise<void> {
    const existing = await tx
      .getRepository(User)
      .findOne({ select: { id: true, organisationId: true }, where: { email } });
    const taken = existing && existing.id !== exceptUserId ? existing : null;
    if (taken && this.sees(actor, organisationId, taken.organisationId)) throw duplicateEmail();
    const domain = emailDomain(email);
    const owner = domain ? await this.domains.organisationForVerifiedDomain(domain, tx) : null;
    if ((owner !== null && owner !== organisationId) || taken) throw emailUnavailable();
  }

  /** A unique-index violation of the e-mail (two writers at once) as the address rule answers it; else `e`. */
  async addressRace(e: unknown, actor: AccountActor, organisationId: number, email: string): Promise<unknown> {
    if (!isUniqueViolation(e)) return e;
    const winner = await this.db.getRepository(User).findOne({ select: { organisationId: true }, where: { email } });
    if (!winner) return e;
    return this.sees(actor, organisationId, winner.organisationId) ? duplicateEmail() : emailUnavailable();
  }

  /** Whether the actor may see accounts of `holder`: its own organisation's, or any for support on the pages. */
  private sees(actor: AccountActor, organisationId: number, holder: number): boolean {
    return holder === organisationId || (actor.type === 'user' && canAccessOrganisation(actor.caller, holder));
  }

  private async record(
    tx: EntityManager,
    actor: AccountActor,
    target: User,
    client: ClientInfo | null | undefined,
    event: Pick<AuditRecord, 'type' | 'summary'> & Partial<AuditRecord>,
  ): Promise<void> {
    // The first start has nobody to name: the console tells of the account it made.
    if (actor.type === 'system') return;
    await this.audit.record(tx, { actor: auditActor(actor, target), target, client, ...event });
  }

  private emit(
    tx: EntityManager,
    type: Exclude<AccountEventType, 'user.erased'>,
    actor: AccountActor,
    user: User,
  ): Promise<void> {
    return publishInTransaction(this.emitter, ACCOUNT_CHANGED, { tx, event: accountEvent(type, actor, user) });
  }
}

const duplicateEmail = () => AppException.conflict(ACCOUNT_MESSAGES.DUPLICATE_EMAIL, ERROR_CODES.DUPLICATE_EMAIL);
const emailUnavailable = () => AppException.conflict(ACCOUNT_MESSAGES.EMAIL_UNAVAILABLE, ERROR_CODES.EMAIL_UNAVAILABLE);
