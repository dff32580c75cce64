import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { RequestContext } from '../../platform/web/request-context';
import { PasswordRulesService } from '../credentials/password-rules.service';
import { PasswordService } from '../credentials/password.service';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation, mfaPending } from '../../platform/web/auth-user';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { SessionsService } from '../sessions';
import { OrganisationInfo, SingleUser, SuccessResult, UserListPage } from '../../shared/api-types';
import { ACCOUNT_MESSAGES, ERROR_CODES, PRODUCT_NAME } from '../../shared/messages';
import { Role } from '../../shared/roles';
import {
  DisableUserDto,
  EnforceMfaDto,
  UpdatePasswordDto,
  UpdateProfileDto,
  UpdateRoleDto,
  UpdateSsoDto,
} from './dto/user-changes.dto';
import { UserListQueryDto } from './dto/user-list-query.dto';
import { ListedOrganisation, UserSearchService } from './search/user-search.service';
import { User } from '../../platform/database/entities/user.entity';
import { checkAccountAction, parseRoleIds } from '../../shared/identity/account-rules';
import { AccountLifecycleService } from './lifecycle/account-lifecycle.service';
import { maySignIn } from '../credentials/may-sign-in';
import { DIRECTORY_OWNED_FIELDS, SCIM_MESSAGES } from '../../shared/identity/scim';
import { Requires } from '../../platform/wiring';
import { CurrentPasswordGuesses } from './current-password-guesses';

export const USER_MESSAGES = {
  NOT_FOUND: ACCOUNT_MESSAGES.NOT_FOUND,
  ORGANISATION_NOT_FOUND: 'Organisation not found.',
  DUPLICATE_EMAIL: ACCOUNT_MESSAGES.DUPLICATE_EMAIL,
  SSO_NOT_ENABLED: 'Single sign-on is not enabled for this organisation.',
  ONLY_SITE_ADMIN_SSO: 'Only a site admin can turn on single sign-on for a user.',
  ONLY_SITE_ADMIN_MFA: 'Only a site admin can change MFA enforcement.',
  OWN_PROFILE_ONLY: 'You can only change your own profile.',
  CURRENT_PASSWORD_WRONG: ACCOUNT_MESSAGES.CURRENT_PASSWORD_WRONG,
  SAME_PASSWORD: ACCOUNT_MESSAGES.SAME_PASSWORD,
  MFA_PENDING_OWN_ONLY: ACCOUNT_MESSAGES.MFA_ENFORCED,
  USER_ADDED_SUBJECT: `${PRODUCT_NAME}: your new account`,
} as const;

/** Users of an organisation: the list, a user, role and access changes, profile, password, new users. */
@Injectable()
export class UsersService {
  /** The sign-in's throttle, so that the current password here is guessed no faster than there. */
  @Requires(CurrentPasswordGuesses) private readonly currentPasswordGuesses!: CurrentPasswordGuesses;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly sessions: SessionsService,
    private readonly search: UserSearchService,
    private readonly passwords: PasswordService,
    private readonly audit: AuditService,
    private readonly passwordRules: PasswordRulesService,
    private readonly lifecycle: AccountLifecycleService,
  ) {}

  /**
   * The user with this id, if the caller may see them: same organisation, or any for E-Support.
   * Another organisation's user is answered exactly like a missing one (404), so ids reveal nothing.
   */
  async findAccessible(caller: AuthUser, userId: number): Promise<User> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user || !canAccessOrganisation(caller, user.organisationId))
      throw AppException.notFound(USER_MESSAGES.NOT_FOUND);
    return user;
  }

  /**
   * The id and name of the organisation a list is of: the caller's own as their sign-in read it (no query on
   * the list's hot path), else (E-Support only) the one asked for.
   */
  private async listedOrganisation(caller: AuthUser, organisationId?: number): Promise<ListedOrganisation> {
    const id = organisationId ?? caller.organisationId;
    if (id === caller.organisationId && caller.organisationName !== undefined)
      return { id, name: caller.organisationName };
    return this.organisationFor(caller, organisationId);
  }

  /** The organisation the caller works on: their own, or (E-Support only) the one asked for. */
  async organisationFor(caller: AuthUser, organisationId?: number): Promise<Organisation> {
    const id = organisationId ?? caller.organisationId;
    if (!canAccessOrganisation(caller, id)) throw AppException.notFound(USER_MESSAGES.ORGANISATION_NOT_FOUND);
    const org = await this.organisations.findOneBy({ id });
    if (!org) throw AppException.notFound(USER_MESSAGES.ORGANISATION_NOT_FOUND);
    return org;
  }

  /** One page of the user list of the caller's organisation (or, for E-Support, the one asked for). */
  async list(caller: AuthUser, query: UserListQueryDto): Promise<UserListPage> {
    return this.search.list(await this.listedOrganisation(caller, query.organisationId), query);
  }

  /** GET /api/users/byId/{id}: one's own (any role, also while MFA enrolment is due) or, for the roles page, another's. */
  async byId(caller: AuthUser, userId: number): Promise<SingleUser> {
    if (userId !== caller.id) {
      if (mfaPending(caller))
        throw AppException.forbidden(USER_MESSAGES.MFA_PENDING_OWN_ONLY, ERROR_CODES.MFA_ENROLMENT_REQUIRED);
      if (!caller.roles.some((r) => [Role.E_SUPPORT, Role.SITE_ADMIN, Role.ADMINISTRATOR].includes(r)))
        throw AppException.forbidden();
    }
    return toSingleUser(await this.findAccessible(caller, userId));
  }

  /** GET /auth/organisation: the organisation, its limits and a light list of its users. */
  async organisation(caller: AuthUser, organisationId?: number): Promise<OrganisationInfo> {
    const org = await this.organisationFor(caller, organisationId);
    const users = await this.users.find({
      select: { id: true, email: true, isDisabled: true, isBlocked: true },
      where: { organisationId: org.id },
      order: { email: 'ASC' },
    });
    return {
      id: org.id,
      code: org.code,
      name: org.name,
      accountType: org.accountType,
      applications: org.applications,
      isSSOEnabled: org.isSSOEnabled,
      allowedUsersNumber: org.allowedUsersNumber,
      maxConcurrentUsers: org.maxConcurrentUsers,
      activeUsers: users.filter(maySignIn).length,
      users: users.map((u) => ({ id: u.id, userEmail: u.email, isDisabled: u.isDisabled, isBlocked: u.isBlocked })),
    };
  }

  async updateRole(caller: AuthUser, dto: UpdateRoleDto, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.findAccessible(caller, dto.userId);
    const choice = parseRoleIds(dto.newUserRoleIds);
    if (typeof choice === 'string') throw AppException.badRequest(choice);
    await this.lifecycle.changeRoles(caller, target, choice, client);
    return { success: true };
  }

  async enforceMfa(caller: AuthUser, dto: EnforceMfaDto, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.findAccessible(caller, dto.userId);
    await this.lifecycle.setMfaEnforced(caller, target, dto.isMFAEnforced, client);
    return { success: true };
  }

  async updateSso(caller: AuthUser, dto: UpdateSsoDto, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.findAccessible(caller, dto.userId);
    const refused = checkAccountAction(caller, target, 'sso');
    if (refused) throw AppException.forbidden(refused);
    if (dto.isSSOEnabled) {
      const org = await this.organisations.findOneByOrFail({ id: target.organisationId });
      if (!org.isSSOEnabled) throw AppException.badRequest(USER_MESSAGES.SSO_NOT_ENABLED);
    }
    if (target.isSSO !== dto.isSSOEnabled) {
      await this.users.manager.transaction(async (tx) => {
        await tx.getRepository(User).update({ id: target.id }, { isSSO: dto.isSSOEnabled });
        await this.audit.record(tx, {
          type: 'SSO_CHANGED',
          actor: caller,
          target,
          client,
          summary: `SSO ${dto.isSSOEnabled ? 'enabled' : 'disabled'} for ${target.email}`,
          changes: { sso: { from: target.isSSO, to: dto.isSSOEnabled } },
        });
      });
    }
    return { success: true };
  }

  /** Enables or disables an account; disabling ends its sessions, enabling respects the active-users limit. */
  async disableUser(caller: AuthUser, dto: DisableUserDto, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.findAccessible(caller, dto.userId);
    await this.lifecycle.setAccess({ type: 'user', caller }, target, !dto.isDisabled, client);
    return { success: true };
  }

  async updateProfile(caller: AuthUser, dto: UpdateProfileDto): Promise<SingleUser> {
    if (dto.userId !== undefined && dto.userId !== caller.id)
      throw AppException.forbidden(USER_MESSAGES.OWN_PROFILE_ONLY);
    const changes: Partial<User> = {};
    for (const key of ['firstName', 'lastName', 'jobTitle', 'department', 'location'] as const) {
      if (dto[key] !== undefined) changes[key] = dto[key];
    }
    if (DIRECTORY_OWNED_FIELDS.some((key) => changes[key] !== undefined)) {
      // The directory's fields of an account it manages are its own: the next synchronisation would undo a change.
      const current = await this.users.findOneByOrFail({ id: caller.id });
      if (
        current.managedBy &&
        DIRECTORY_OWNED_FIELDS.some((k) => changes[k] !== undefined && changes[k] !== current[k])
      )
        throw AppException.forbidden(SCIM_MESSAGES.DIRECTORY_MANAGED_PROFILE, ERROR_CODES.DIRECTORY_MANAGED);
    }
    if (Object.keys(changes).length > 0) await this.users.update({ id: caller.id }, changes);
    return toSingleUser(await this.users.findOneByOrFail({ id: caller.id }));
  }

  /**
   * The caller's own password: the current one is required, under the sign-in's throttle (a wrong one counts as a
   * failed sign-in of the account from that address; five lock the pair, the right password included). Every
   * session of the account ends, this one included (docs/product-rules.md §3): whoever else held the old password,
   * or a session opened with it, is out at once.
   */
  async updatePassword(caller: AuthUser, dto: UpdatePasswordDto, client?: RequestContext): Promise<SuccessResult> {
    const user = await this.users.findOneByOrFail({ id: caller.id });
    const ip = client?.ip ?? '';
    await this.currentPasswordGuesses.allowGuess(user.email, ip);
    if ((await this.passwords.verifyAccount(user, dto.currentPassword)) !== 'right') {
      await this.currentPasswordGuesses.countWrongGuess(user.email, ip, user);
      throw AppException.badRequest(USER_MESSAGES.CURRENT_PASSWORD_WRONG, ERROR_CODES.INVALID_CREDENTIALS);
    }
    if (dto.currentPassword === dto.userPassword)
      throw AppException.badRequest(USER_MESSAGES.SAME_PASSWORD, ERROR_CODES.WEAK_PASSWORD);
    await this.passwordRules.assertAcceptable(dto.userPassword, 'userPassword', user.organisationId);
    const passwordHash = await this.passwords.hash(dto.userPassword);
    await this.users.manager.transaction(async (tx) => {
      await tx
        .getRepository(User)
        .update(
          { id: user.id },
          { passwordHash, mustChangePassword: false, passwordChangedAt: new Date(), passwordCompromisedAt: null },
        );
      await this.sessions.endAllForUsers([user.id], 'password-changed', undefined, tx);
      await this.audit.record(tx, {
        type: 'PASSWORD_CHANGED',
        actor: caller,
        target: user,
        client,
        summary: 'Password changed',
      });
    });
    return { success: true };
  }
}

export function toSingleUser(u: User): SingleUser {
  return {
    id: u.id,
    organisationId: u.organisationId,
    isDisabled: u.isDisabled,
    isMFAEnforced: u.isMFAEnforced,
    isMFAEnabled: u.isMFAEnabled,
    hasPasskey: u.hasPasskey,
    isSSO: u.isSSO,
    firstName: u.firstName,
    lastName: u.lastName,
    userEmail: u.email,
    userUserRoleMapping: u.roles.map((roleId) => ({ roleId })),
    jobTitle: u.jobTitle,
    department: u.department,
    location: u.location,
    isDirectoryManaged: u.managedBy !== null,
  };
}
