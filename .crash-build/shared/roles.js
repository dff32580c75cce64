"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.USER_WRITERS = exports.USER_MENU_ROLES = exports.ADMIN_TYPE_ROLES = exports.ASSIGNABLE_BY_SUPPORT = exports.ASSIGNABLE_BY_ADMINS = exports.FIVE_ROLES = exports.SIX_ROLES = exports.BASE_ROLE = exports.MAIN_ROLES = exports.ALL_ROLES = exports.ROLE_CODES = exports.ROLE_NAMES = exports.Role = void 0;
exports.effectiveRoles = effectiveRoles;
exports.hasAnyRole = hasAnyRole;
exports.roleNames = roleNames;
/**
 * The role catalogue (CONTRACT 2). The one place where role ids, codes, display names and the
 * role groups of the specification live; the server and the client both import this file.
 */
var Role;
(function (Role) {
    Role[Role["E_SUPPORT"] = 1] = "E_SUPPORT";
    Role[Role["SITE_ADMIN"] = 2] = "SITE_ADMIN";
    Role[Role["ADMINISTRATOR"] = 3] = "ADMINISTRATOR";
    Role[Role["STANDARD_ADMIN"] = 4] = "STANDARD_ADMIN";
    Role[Role["PORTFOLIO_MANAGER"] = 5] = "PORTFOLIO_MANAGER";
    Role[Role["ANALYST"] = 6] = "ANALYST";
    Role[Role["VIEWER"] = 7] = "VIEWER";
    Role[Role["CA_VIEWER"] = 8] = "CA_VIEWER";
})(Role || (exports.Role = Role = {}));
exports.ROLE_NAMES = {
    [Role.E_SUPPORT]: 'E-Support',
    [Role.SITE_ADMIN]: 'Site Admin',
    [Role.ADMINISTRATOR]: 'Administrator',
    [Role.STANDARD_ADMIN]: 'Standard Admin',
    [Role.PORTFOLIO_MANAGER]: 'Portfolio Manager',
    [Role.ANALYST]: 'Analyst',
    [Role.VIEWER]: 'Viewer',
    [Role.CA_VIEWER]: 'CA Viewer',
};
exports.ROLE_CODES = {
    [Role.E_SUPPORT]: 'E_SUPPORT',
    [Role.SITE_ADMIN]: 'SITE_ADMIN',
    [Role.ADMINISTRATOR]: 'ADMINISTRATOR',
    [Role.STANDARD_ADMIN]: 'STANDARD_ADMIN',
    [Role.PORTFOLIO_MANAGER]: 'PORTFOLIO_MANAGER',
    [Role.ANALYST]: 'ANALYST',
    [Role.VIEWER]: 'VIEWER',
    [Role.CA_VIEWER]: 'CA_VIEWER',
};
exports.ALL_ROLES = [1, 2, 3, 4, 5, 6, 7, 8];
/** A user's main role: every role but the administrator flag. */
exports.MAIN_ROLES = exports.ALL_ROLES.filter((r) => r !== Role.ADMINISTRATOR);
/** The base role: default for new users, the only one that may carry the administrator flag. */
exports.BASE_ROLE = Role.STANDARD_ADMIN;
/** The specification's 'six roles' (menus Activities and Reports, portfolio routes). */
exports.SIX_ROLES = [Role.SITE_ADMIN, Role.ADMINISTRATOR, Role.STANDARD_ADMIN, Role.PORTFOLIO_MANAGER, Role.ANALYST, Role.VIEWER];
/** The 'five roles' (External data, User Security): the six less Viewer. */
exports.FIVE_ROLES = exports.SIX_ROLES.filter((r) => r !== Role.VIEWER);
/** The four roles site admins and administrators may assign. */
exports.ASSIGNABLE_BY_ADMINS = [Role.STANDARD_ADMIN, Role.PORTFOLIO_MANAGER, Role.ANALYST, Role.VIEWER];
/** The only role support may assign. */
exports.ASSIGNABLE_BY_SUPPORT = [Role.SITE_ADMIN];
/** The 'four administrator-type roles' that see User Groups. */
exports.ADMIN_TYPE_ROLES = [Role.SITE_ADMIN, Role.ADMINISTRATOR, Role.STANDARD_ADMIN, Role.PORTFOLIO_MANAGER];
/** The 'three administrator-type roles' that see Users in the cog menu (beside E-Support). */
exports.USER_MENU_ROLES = [Role.E_SUPPORT, Role.SITE_ADMIN, Role.ADMINISTRATOR, Role.STANDARD_ADMIN];
/** Roles with write access on the user list. */
exports.USER_WRITERS = [Role.SITE_ADMIN, Role.ADMINISTRATOR];
/** The effective role ids of a user: the main role, plus the administrator flag when set. */
function effectiveRoles(mainRole, isAdministrator) {
    return isAdministrator && mainRole !== Role.ADMINISTRATOR ? [mainRole, Role.ADMINISTRATOR] : [mainRole];
}
function hasAnyRole(userRoles, allowed) {
    return userRoles.some((r) => allowed.includes(r));
}
function roleNames(roles) {
    return roles.map((r) => exports.ROLE_NAMES[r]).join(', ');
}
//# sourceMappingURL=roles.js.map