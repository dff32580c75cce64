import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { ClientInfo } from '../../../platform/web/request-context';
import { User } from '../../../platform/database/entities/user.entity';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { lockRow } from '../../../platform/database/locks';
import { maySignIn } from '../../credentials/may-sign-in';
import { SessionsService } from '../../sessions';
import { ERROR_CODES } from '../../../shared/messages';
import { erasedUserEmail, erasedUserLabel, PRIVACY_MESSAGES } from '../../../shared/administration/privacy';
import { Role } from '../../../shared/roles';
import { AccountActor } from './account-actor';
import { ErasedPerson, PERSONAL_TABLES } from './personal-data';

/**
 * Who may be erased, and what erasing leaves (docs/privacy.md): a person deletes their own account when the
 * organisation's policy allows it and the directory does not manage it; an administrator erases an account whose
 * access is off already; the last site admin who may sign in stays; an E-Support account is never erased. The
 * account becomes a tombstone, its sessions and sockets end, every table of `PERSONAL_TABLES` gives the person up,
 * and USER_ERASED is audited. {@link AccountLifecycleService.erase} runs it and announces it.
 */
@Injectable()
export class AccountErasure {
  constructor(
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
  ) {}

  /** Erases the account inside `tx`, under its organisation's row lock; answers the account as it was. */
  async erase(
    tx: EntityManager,
    actor: AccountActor,
    target: User,
    self: boolean,
    client?: ClientInfo | null,
  ): Promise<User> {
    const org = await lockRow(tx, Organisation, target.organisationId);
    const repo = tx.getRepository(User);
    const current = await repo.findOneBy({ id: target.id });
    if (!org || !current || current.erasedAt) throw AppException.notFound(PRIVACY_MESSAGES.NOT_FOUND);
    if (current.roleId === Role.E_SUPPORT) throw AppException.forbidden(PRIVACY_MESSAGES.SUPPORT_NOT_ERASABLE);
    if (self) {
      if (!org.selfDeletion)
        throw AppException.forbidden(PRIVACY_MESSAGES.SELF_DELETION_OFF, ERROR_CODES.SELF_DELETION_OFF);
      if (current.managedBy)
        throw AppException.conflict(PRIVACY_MESSAGES.DIRECTORY_MANAGED, ERROR_CODES.DIRECTORY_MANAGED);
    } else if (maySignIn(current)) {
      throw AppException.conflict(PRIVACY_MESSAGES.ACCESS_STILL_ON, ERROR_CODES.ACCESS_STILL_ON);
    }
    if (current.roles.includes(Role.SITE_ADMIN) && maySignIn(current)) {
      const others = await repo
        .createQueryBuilder('u')
        .where('u.organisationId = :org AND u.roleId = :role AND u.id <> :id', {
          org: org.id,
          role: Role.SITE_ADMIN,
          id: current.id,
        })
        .andWhere('u.isDisabled = :no AND u.isBlocked = :no', { no: false })
        .getCount();
      if (others === 0) throw AppException.conflict(PRIVACY_MESSAGES.LAST_SITE_ADMIN, ERROR_CODES.LAST_SITE_ADMIN);
    }
    await this.sessions.endAllForUsers([current.id], 'disabled', undefined, tx);
    const person: ErasedPerson = {
      id: current.id,
      organisationId: current.organisationId,
      email: current.email,
      firstName: current.firstName,
      lastName: current.lastName,
      directoryUserName: current.directoryUserName,
    };
    for (const table of Object.values(PERSONAL_TABLES)) await table.erase(tx, person);
    await repo.update(
      { id: current.id },
      {
        email: erasedUserEmail(current.id),
        firstName: '',
        lastName: '',
        jobTitle: '',
        department: '',
        location: '',
        passwordHash: null,
        mfaSecret: null,
        mfaPendingSecret: null,
        emailMfaCodeHash: null,
        emailMfaCodeExpiresAt: null,
        isMFAEnabled: false,
        hasPasskey: false,
        isDisabled: true,
        isBlocked: true,
        isSSO: false,
        externalId: null,
        directoryUserName: null,
        managedBy: null,
        erasedAt: new Date(),
      },
    );
    const label = erasedUserLabel(current.id);
    const tombstone = { id: current.id, email: label, organisationId: current.organisationId };
    const by =
      actor.type === 'user' && actor.caller.id !== current.id
        ? { actor: actor.caller, summary: `${label} erased` }
        : { actor: tombstone, summary: `${label} deleted their own account` };
    await this.audit.record(tx, { type: 'USER_ERASED', target: tombstone, client, ...by });
    return current;
  }
}
