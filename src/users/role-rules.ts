import { ASSIGNABLE_BY_ADMINS, ASSIGNABLE_BY_SUPPORT, BASE_ROLE, Role } from '../shared/roles';

/**
 * The role rules of spec 000 §4 and §6 and CONTRACT 2, as pure functions: the services call them, the unit
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

/** The main roles a caller may hand out (the roles page's dropdown; spec 000 §4). */
export function assignableMainRoles(caller: RoleCaller): Role[] {
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
export function checkRoleChange(caller: RoleCaller, target: RoleHolder, next: RoleChoice): string | null {
  const unchanged = next.mainRole === target.roleId && next.isAdministrator === target.isAdministrator;
  if (caller.id === target.id) return unchanged ? null : ROLE_RULE_MESSAGES.OWN_ROLE;

  if (isSupportRole(caller.roles)) {
    if (target.roleId === Role.E_SUPPORT) return ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE;
    if (!ASSIGNABLE_BY_SUPPORT.includes(next.mainRole) || next.isAdministrator) return ROLE_RULE_MESSAGES.SUPPORT_ONLY_SITE_ADMIN;
    return null;
  }
  if (!isSiteAdminRole(caller.roles) && !isAdministratorRole(caller.roles)) return ROLE_RULE_MESSAGES.NO_ROLE_RIGHTS;
  if (!ASSIGNABLE_BY_ADMINS.includes(target.roleId)) return ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE;
  if (!ASSIGNABLE_BY_ADMINS.includes(next.mainRole)) return ROLE_RULE_MESSAGES.NOT_ASSIGNABLE;
  if (!canToggleAdministrator(caller)) {
    const kept = target.isAdministrator && next.mainRole === BASE_ROLE;
    if (next.isAdministrator !== kept) return ROLE_RULE_MESSAGES.ONLY_SITE_ADMIN_ADMIN_FLAG;
  }
  return null;
}

/** The role a new user may get from this caller (create user page: site admins and administrators). */
export function checkNewUserRole(caller: RoleCaller, next: RoleChoice): string | null {
  if (!isSiteAdminRole(caller.roles) && !isAdministratorRole(caller.roles)) return ROLE_RULE_MESSAGES.NO_ROLE_RIGHTS;
  if (!ASSIGNABLE_BY_ADMINS.includes(next.mainRole)) return ROLE_RULE_MESSAGES.NOT_ASSIGNABLE;
  if (next.isAdministrator && !canToggleAdministrator(caller)) return ROLE_RULE_MESSAGES.ONLY_SITE_ADMIN_ADMIN_FLAG;
  return null;
}

/**
 * Whether the caller may change another user's access, SSO, MFA enforcement or MFA: never an E-Support
 * account, and an administrator (without the site admin role) never a site admin.
 */
export function checkManageable(caller: RoleCaller, target: RoleHolder): string | null {
  if (caller.id === target.id) return ROLE_RULE_MESSAGES.OWN_ACCESS;
  if (target.roleId === Role.E_SUPPORT && !isSupportRole(caller.roles)) return ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE_ACCESS;
  if (target.roleId === Role.SITE_ADMIN && !isSiteAdminRole(caller.roles) && !isSupportRole(caller.roles)) return ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE_ACCESS;
  return null;
}

/** Nobody changes their own access, SSO or MFA enforcement (spec 000 §4: the checkbox is read-only). */
export function checkNotSelf(caller: RoleCaller, target: { id: number }): string | null {
  return caller.id === target.id ? ROLE_RULE_MESSAGES.OWN_ACCESS : null;
}
