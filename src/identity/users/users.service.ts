import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { RequestContext } from '../../platform/web/request-context';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation, mfaPending } from '../../platform/web/auth-user';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { OrganisationInfo, SingleUser, SuccessResult, UserListPage } from '../../shared/api-types';
import { ACCOUNT_MESSAGES, ERROR_CODES, PRODUCT_NAME } from '../../shared/messages';
import { Role } from '../../shared/roles';
import { DisableUserDto, EnforceMfaDto, UpdateRoleDto, UpdateSsoDto } from './dto/user-changes.dto';
import { UserListQueryDto } from './dto/user-list-query.dto';
import { ListedOrganisation, UserSearchService } from './search/user-search.service';
import { User } from '../../platform/database/entities/user.entity';
import { checkAccountAction, parseRoleIds } from '../../shared/identity/account-rules';
import { AccountLifecycleService } from './lifecycle/account-lifecycle.service';
import { maySignIn } from '../credentials/may-sign-in';

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

/** Users of an organisation: the list, a user, role, access and SSO changes (one's own profile: ProfileService). */
@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly search: UserSearchService,
    private readonly audit: AuditService,
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
