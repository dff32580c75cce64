import { ASSIGNABLE_BY_ADMINS, ASSIGNABLE_BY_SUPPORT, BASE_ROLE, Role } from '../roles';

/**
 * The role rules of spec 000 §4 and §6 and docs/product-rules.md §2, as pure functions: the services call them, the unit
 * specs prove them. Each answers null when allowed, or the reason (a sentence for people) when not.
 */

export interface RoleHolder {
  id: number;
  roleId: Role;
  isAdministrator: boolean;
}

export interface RoleCaller {
  id: number;
  roles: readonly Role[];
}

/** The caller and the target of an action on an account, with their organisations. */
export interface AccountCaller extends RoleCaller {
  organisationId: number;
}
export interface AccountHolder extends RoleHolder {
  organisationId: number;
}

/** The actions one account takes on another (docs/product-rules.md §2). */
export type AccountAction = 'role' | 'access' | 'sso' | 'mfa' | 'force-logoff';

export interface RoleChoice {
  mainRole: Role;
  isAdministrator: boolean;
}

export const ROLE_RULE_MESSAGES = {
  ONE_MAIN_ROLE: 'Choose exactly one role, optionally with the Administrator role.',
  UNKNOWN_ROLE: 'Unknown role.',
  ADMIN_NEEDS_BASE_ROLE: 'The Administrator role can only be held together with the Standard Admin role.',
  OWN_ROLE: 'You cannot change your own role.',
  OWN_ACCESS: 'You cannot change your own access.',
  SUPPORT_ONLY_SITE_ADMIN: 'E-Support can assign only the Site Admin role.',
  NOT_ASSIGNABLE: 'You can assign only the Standard Admin, Portfolio Manager, Analyst and Viewer roles.',
  ONLY_SITE_ADMIN_ADMIN_FLAG: 'Only a site admin can grant or remove Administrator privileges.',
  TARGET_NOT_MANAGEABLE: "You cannot change this user's role.",
  TARGET_NOT_MANAGEABLE_ACCESS: 'You cannot change the settings of this user.',
  NO_ROLE_RIGHTS: 'You do not have permission to change roles.',
  NO_ACCOUNT_RIGHTS: 'You do not have permission to act on other accounts.',
  OTHER_ORGANISATION: 'This user belongs to another organisation.',
} as const;

export const isSupportRole = (roles: readonly Role[]) => roles.includes(Role.E_SUPPORT);
export const isSiteAdminRole = (roles: readonly Role[]) => roles.includes(Role.SITE_ADMIN);
export const isAdministratorRole = (roles: readonly Role[]) => roles.includes(Role.ADMINISTRATOR);

/**
 * Reads a list of role ids as one main role plus the optional administrator flag. Turning off the base role
 * clears the flag, so the flag is only ever valid beside the base role.
 */
export function parseRoleIds(roleIds: readonly number[]): RoleChoice | string {
  const ids = [...new Set(roleIds)];
  if (ids.some((r) => !Object.values(Role).includes(r))) return ROLE_RULE_MESSAGES.UNKNOWN_ROLE;
  const main = ids.filter((r) => r !== Role.ADMINISTRATOR);
  if (main.length !== 1) return ROLE_RULE_MESSAGES.ONE_MAIN_ROLE;
  const isAdministrator = ids.includes(Role.ADMINISTRATOR);
  if (isAdministrator && main[0] !== BASE_ROLE) return ROLE_RULE_MESSAGES.ADMIN_NEEDS_BASE_ROLE;
  return { mainRole: main[0] as Role, isAdministrator };
}

/** The main roles a caller may hand out (the roles page's dropdown, and every role the server accepts; spec 000 §4). */
export function assignableMainRoles(caller: Pick<RoleCaller, 'roles'>): Role[] {
  if (isSupportRole(caller.roles)) return [...ASSIGNABLE_BY_SUPPORT];
  if (isSiteAdminRole(caller.roles) || isAdministratorRole(caller.roles)) return [...ASSIGNABLE_BY_ADMINS];
  return [];
}

/** Only a site admin toggles the administrator flag (and SSO, and MFA enforcement). */
export function canToggleAdministrator(caller: RoleCaller): boolean {
  return isSiteAdminRole(caller.roles);
}

/**
 * Whether the caller may give `target` the role `next`.
 * - Editing oneself: only one's own role, unchanged.
 * - E-Support: only Site Admin (without the flag), for any user but another E-Support account.
 * - Site admins and administrators: the four assignable roles, for users who hold one of them; the flag only
 *   by a site admin (an administrator may keep it as it is, or lose it with the base role).
 */
export function checkRoleChange(caller: AccountCaller, target: AccountHolder, next: RoleChoice): string | null {
  const unchanged = next.mainRole === target.roleId && next.isAdministrator === target.isAdministrator;
  if (caller.id === target.id) return unchanged ? null : ROLE_RULE_MESSAGES.OWN_ROLE;
  if (!isSupportRole(caller.roles) && !isSiteAdminRole(caller.roles) && !isAdministratorRole(caller.roles))
    return ROLE_RULE_MESSAGES.NO_ROLE_RIGHTS;
  const refused = checkAccountAction(caller, target, 'role');
  if (refused) return refused;

  if (isSupportRole(caller.roles)) {
    if (!assignableMainRoles(caller).includes(next.mainRole) || next.isAdministrator)
      return ROLE_RULE_MESSAGES.SUPPORT_ONLY_SITE_ADMIN;
    return null;
  }
  if (!ASSIGNABLE_BY_ADMINS.includes(target.roleId)) return ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE;
  if (!assignableMainRoles(caller).includes(next.mainRole)) return ROLE_RULE_MESSAGES.NOT_ASSIGNABLE;
  if (!canToggleAdministrator(caller)) {
    const kept = target.isAdministrator && next.mainRole === BASE_ROLE;
    if (next.isAdministrator !== kept) return ROLE_RULE_MESSAGES.ONLY_SITE_ADMIN_ADMIN_FLAG;
  }
  return null;
}

/** The role a new user may get from this caller (create user page: site admins and administrators). */
export function checkNewUserRole(caller: RoleCaller, next: RoleChoice): string | null {
  if (!isSiteAdminRole(caller.roles) && !isAdministratorRole(caller.roles)) return ROLE_RULE_MESSAGES.NO_ROLE_RIGHTS;
  if (!assignableMainRoles(caller).includes(next.mainRole)) return ROLE_RULE_MESSAGES.NOT_ASSIGNABLE;
  if (next.isAdministrator && !canToggleAdministrator(caller)) return ROLE_RULE_MESSAGES.ONLY_SITE_ADMIN_ADMIN_FLAG;
  return null;
}

/**
 * The role a new account may get from this caller in this organisation, wherever it is created: E-Support opens
 * another organisation with its site admin (Create Site Admin) and adds E-Support accounts to its own (Create
 * E-Support); site admins and administrators follow the create user page's rule.
 */
export function checkNewAccountRole(caller: AccountCaller, next: RoleChoice, organisationId: number): string | null {
  if (!isSupportRole(caller.roles)) return checkNewUserRole(caller, next);
  const own = organisationId === caller.organisationId;
  const allowed = own ? next.mainRole === Role.E_SUPPORT : next.mainRole === Role.SITE_ADMIN;
  return allowed && !next.isAdministrator ? null : ROLE_RULE_MESSAGES.NOT_ASSIGNABLE;
}

/**
 * THE rule for "may the caller act on this account" (docs/product-rules.md §2), for every action on another account:
 * roles, access (enable/disable), SSO, MFA (enforce, switch off) and force log-off.
 * - Nobody changes their own role or access (their SSO or MFA settings neither); ending one's own
 *   sessions is harmless and allowed.
 * - E-Support acts on any organisation's site admin. Its one role action, giving an account the Site Admin
 *   role (docs/product-rules.md §2: 'may assign only the Site Admin role'), reaches any account of another organisation.
 * - A site admin acts on the other accounts of their organisation (E-Support accounts are never theirs).
 * - An administrator acts on the accounts of their organisation except site admins and E-Support.
 * - Nobody else acts on another account.
 */
export function checkAccountAction(caller: AccountCaller, target: AccountHolder, action: AccountAction): string | null {
  const denied =
    action === 'role' ? ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE : ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE_ACCESS;
  if (caller.id === target.id) {
    if (action === 'force-logoff') return null;
    return action === 'role' ? ROLE_RULE_MESSAGES.OWN_ROLE : ROLE_RULE_MESSAGES.OWN_ACCESS;
  }
  if (target.roleId === Role.E_SUPPORT) return denied;
  if (isSupportRole(caller.roles)) {
    return target.roleId === Role.SITE_ADMIN || action === 'role' ? null : denied;
  }
  if (target.organisationId !== caller.organisationId) return ROLE_RULE_MESSAGES.OTHER_ORGANISATION;
  if (isSiteAdminRole(caller.roles)) return null;
  if (isAdministratorRole(caller.roles)) return target.roleId === Role.SITE_ADMIN ? denied : null;
  return ROLE_RULE_MESSAGES.NO_ACCOUNT_RIGHTS;
}
