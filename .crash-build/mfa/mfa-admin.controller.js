"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MfaAdminController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const roles_1 = require("../shared/roles");
const user_changes_dto_1 = require("../users/dto/user-changes.dto");
const mfa_admin_service_1 = require("./mfa-admin.service");
/**
 * Access: disabling another user's MFA is for the writers of the user list, site admins and administrators
 * (spec 000 §6: "Only they see the actions column, open the roles page by double-click, and disable a user's
 * MFA"), within their organisation; another organisation's user is a 404. Nobody uses it on themselves
 * (their own MFA goes off with a code through POST /mfa/disable), and an administrator cannot act on a site admin.
 */
let MfaAdminController = class MfaAdminController {
    mfaAdmin;
    constructor(mfaAdmin) {
        this.mfaAdmin = mfaAdmin;
    }
    disableUserMfa(caller, dto) {
        return this.mfaAdmin.disableUserMfa(caller, dto.userId);
    }
};
exports.MfaAdminController = MfaAdminController;
__decorate([
    (0, common_1.Put)('disableUserMfa'),
    (0, access_decorators_1.Roles)(roles_1.USER_WRITERS),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_changes_dto_1.UserIdDto]),
    __metadata("design:returntype", void 0)
], MfaAdminController.prototype, "disableUserMfa", null);
exports.MfaAdminController = MfaAdminController = __decorate([
    (0, swagger_1.ApiTags)('mfa'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('api/mfa'),
    __metadata("design:paramtypes", [mfa_admin_service_1.MfaAdminService])
], MfaAdminController);
//# sourceMappingURL=mfa-admin.controller.js.map