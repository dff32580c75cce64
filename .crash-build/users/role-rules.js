"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isAdministratorRole = exports.isSiteAdminRole = exports.isSupportRole = exports.ROLE_RULE_MESSAGES = void 0;
exports.parseRoleIds = parseRoleIds;
exports.assignableMainRoles = assignableMainRoles;
exports.canToggleAdministrator = canToggleAdministrator;
exports.checkRoleChange = checkRoleChange;
exports.checkNewUserRole = checkNewUserRole;
exports.checkManageable = checkManageable;
exports.checkNotSelf = checkNotSelf;
const roles_1 = require("../shared/roles");
exports.ROLE_RULE_MESSAGES = {
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
};
const isSupportRole = (roles) => roles.includes(roles_1.Role.E_SUPPORT);
exports.isSupportRole = isSupportRole;
const isSiteAdminRole = (roles) => roles.includes(roles_1.Role.SITE_ADMIN);
exports.isSiteAdminRole = isSiteAdminRole;
const isAdministratorRole = (roles) => roles.includes(roles_1.Role.ADMINISTRATOR);
exports.isAdministratorRole = isAdministratorRole;
/**
 * Reads a list of role ids as one main role plus the optional administrator flag. Turning off the base role
 * clears the flag, so the flag is only ever valid beside the base role.
 */
function parseRoleIds(roleIds) {
    const ids = [...new Set(roleIds)];
    if (ids.some((r) => !Object.values(roles_1.Role).includes(r)))
        return exports.ROLE_RULE_MESSAGES.UNKNOWN_ROLE;
    const main = ids.filter((r) => r !== roles_1.Role.ADMINISTRATOR);
    if (main.length !== 1)
        return exports.ROLE_RULE_MESSAGES.ONE_MAIN_ROLE;
    const isAdministrator = ids.includes(roles_1.Role.ADMINISTRATOR);
    if (isAdministrator && main[0] !== roles_1.BASE_ROLE)
        return exports.ROLE_RULE_MESSAGES.ADMIN_NEEDS_BASE_ROLE;
    return { mainRole: main[0], isAdministrator };
}
/** The main roles a caller may hand out (the roles page's dropdown; spec 000 §4). */
function assignableMainRoles(caller) {
    if ((0, exports.isSupportRole)(caller.roles))
        return [...roles_1.ASSIGNABLE_BY_SUPPORT];
    if ((0, exports.isSiteAdminRole)(caller.roles) || (0, exports.isAdministratorRole)(caller.roles))
        return [...roles_1.ASSIGNABLE_BY_ADMINS];
    return [];
}
/** Only a site admin toggles the administrator flag (and SSO, and MFA enforcement). */
function canToggleAdministrator(caller) {
    return (0, exports.isSiteAdminRole)(caller.roles);
}
/**
 * Whether the caller may give `target` the role `next`.
 * - Editing oneself: only one's own role, unchanged.
 * - E-Support: only Site Admin (without the flag), for any user but another E-Support account.
 * - Site admins and administrators: the four assignable roles, for users who hold one of them; the flag only
 *   by a site admin (an administrator may keep it as it is, or lose it with the base role).
 */
function checkRoleChange(caller, target, next) {
    const unchanged = next.mainRole === target.roleId && next.isAdministrator === target.isAdministrator;
    if (caller.id === target.id)
        return unchanged ? null : exports.ROLE_RULE_MESSAGES.OWN_ROLE;
    if ((0, exports.isSupportRole)(caller.roles)) {
        if (target.roleId === roles_1.Role.E_SUPPORT)
            return exports.ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE;
        if (!roles_1.ASSIGNABLE_BY_SUPPORT.includes(next.mainRole) || next.isAdministrator)
            return exports.ROLE_RULE_MESSAGES.SUPPORT_ONLY_SITE_ADMIN;
        return null;
    }
    if (!(0, exports.isSiteAdminRole)(caller.roles) && !(0, exports.isAdministratorRole)(caller.roles))
        return exports.ROLE_RULE_MESSAGES.NO_ROLE_RIGHTS;
    if (!roles_1.ASSIGNABLE_BY_ADMINS.includes(target.roleId))
        return exports.ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE;
    if (!roles_1.ASSIGNABLE_BY_ADMINS.includes(next.mainRole))
        return exports.ROLE_RULE_MESSAGES.NOT_ASSIGNABLE;
    if (!canToggleAdministrator(caller)) {
        const kept = target.isAdministrator && next.mainRole === roles_1.BASE_ROLE;
        if (next.isAdministrator !== kept)
            return exports.ROLE_RULE_MESSAGES.ONLY_SITE_ADMIN_ADMIN_FLAG;
    }
    return null;
}
/** The role a new user may get from this caller (create user page: site admins and administrators). */
function checkNewUserRole(caller, next) {
    if (!(0, exports.isSiteAdminRole)(caller.roles) && !(0, exports.isAdministratorRole)(caller.roles))
        return exports.ROLE_RULE_MESSAGES.NO_ROLE_RIGHTS;
    if (!roles_1.ASSIGNABLE_BY_ADMINS.includes(next.mainRole))
        return exports.ROLE_RULE_MESSAGES.NOT_ASSIGNABLE;
    if (next.isAdministrator && !canToggleAdministrator(caller))
        return exports.ROLE_RULE_MESSAGES.ONLY_SITE_ADMIN_ADMIN_FLAG;
    return null;
}
/**
 * Whether the caller may change another user's access, SSO, MFA enforcement or MFA: never an E-Support
 * account, and an administrator (without the site admin role) never a site admin.
 */
function checkManageable(caller, target) {
    if (caller.id === target.id)
        return exports.ROLE_RULE_MESSAGES.OWN_ACCESS;
    if (target.roleId === roles_1.Role.E_SUPPORT && !(0, exports.isSupportRole)(caller.roles))
        return exports.ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE_ACCESS;
    if (target.roleId === roles_1.Role.SITE_ADMIN && !(0, exports.isSiteAdminRole)(caller.roles) && !(0, exports.isSupportRole)(caller.roles))
        return exports.ROLE_RULE_MESSAGES.TARGET_NOT_MANAGEABLE_ACCESS;
    return null;
}
/** Nobody changes their own access, SSO or MFA enforcement (spec 000 §4: the checkbox is read-only). */
function checkNotSelf(caller, target) {
    return caller.id === target.id ? exports.ROLE_RULE_MESSAGES.OWN_ACCESS : null;
}
//# sourceMappingURL=role-rules.js.map