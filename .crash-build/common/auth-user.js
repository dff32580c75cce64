"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isSupport = isSupport;
exports.canAccessOrganisation = canAccessOrganisation;
const roles_1 = require("../shared/roles");
/** E-Support accounts work across organisations (CONTRACT 2). */
function isSupport(user) {
    return user.roles.includes(roles_1.Role.E_SUPPORT);
}
/** Whether the caller may see data of the given organisation. */
function canAccessOrganisation(user, organisationId) {
    return isSupport(user) || user.organisationId === organisationId;
}
//# sourceMappingURL=auth-user.js.map