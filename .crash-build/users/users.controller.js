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
exports.UsersController = exports.ROLES_PAGE_ROLES = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const throttler_1 = require("@nestjs/throttler");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const roles_1 = require("../shared/roles");
const user_changes_dto_1 = require("./dto/user-changes.dto");
const user_list_query_dto_1 = require("./dto/user-list-query.dto");
const users_service_1 = require("./users.service");
/** Who opens the user roles page (spec 000 §6, 001 §2.1): support, site admin, administrator. */
exports.ROLES_PAGE_ROLES = [roles_1.Role.E_SUPPORT, roles_1.Role.SITE_ADMIN, roles_1.Role.ADMINISTRATOR];
/**
 * Access: the list is read by support, site admins, administrators and standard admins (read-only for the
 * last); roles are changed by support (Site Admin only), site admins and administrators; access is changed by
 * the writers (site admin, administrator); SSO and MFA enforcement by site admins only; users are created by
 * the writers. current, byId (own), updateUser and updatePassword are one's own, for every role, and stay
 * open while MFA enrolment is due. Every query is confined to the caller's organisation (E-Support: all);
 * another organisation's user is a 404. Static paths are declared before ':id'-style ones.
 */
let UsersController = class UsersController {
    users;
    constructor(users) {
        this.users = users;
    }
    list(caller, query) {
        return this.users.list(caller, query);
    }
    current(user) {
        return this.users.current(user.id);
    }
    byId(caller, id) {
        return this.users.byId(caller, id);
    }
    updateRole(caller, dto) {
        return this.users.updateRole(caller, dto);
    }
    enforceMfa(caller, dto) {
        return this.users.enforceMfa(caller, dto);
    }
    updateSso(caller, dto) {
        return this.users.updateSso(caller, dto);
    }
    disableUser(caller, dto) {
        return this.users.disableUser(caller, dto);
    }
    updateUser(caller, dto) {
        return this.users.updateProfile(caller, dto);
    }
    updatePassword(caller, dto) {
        return this.users.updatePassword(caller, dto);
    }
    add(caller, dto) {
        return this.users.add(caller, dto);
    }
};
exports.UsersController = UsersController;
__decorate([
    (0, common_1.Get)(),
    (0, access_decorators_1.Roles)(roles_1.USER_MENU_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_list_query_dto_1.UserListQueryDto]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "list", null);
__decorate([
    (0, common_1.Get)('current'),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    (0, access_decorators_1.AllowMfaPending)(),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "current", null);
__decorate([
    (0, common_1.Get)('byId/:id'),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    (0, access_decorators_1.AllowMfaPending)(),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)('id', common_1.ParseIntPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Number]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "byId", null);
__decorate([
    (0, common_1.Put)('updateRole'),
    (0, access_decorators_1.Roles)(exports.ROLES_PAGE_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_changes_dto_1.UpdateRoleDto]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "updateRole", null);
__decorate([
    (0, common_1.Put)('enforceMFA'),
    (0, access_decorators_1.Roles)([roles_1.Role.SITE_ADMIN]),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_changes_dto_1.EnforceMfaDto]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "enforceMfa", null);
__decorate([
    (0, common_1.Put)('updateSsoStatus'),
    (0, access_decorators_1.Roles)([roles_1.Role.SITE_ADMIN]),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_changes_dto_1.UpdateSsoDto]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "updateSso", null);
__decorate([
    (0, common_1.Put)('disableUser'),
    (0, access_decorators_1.Roles)(roles_1.USER_WRITERS),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_changes_dto_1.DisableUserDto]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "disableUser", null);
__decorate([
    (0, common_1.Put)('updateUser'),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    (0, access_decorators_1.AllowMfaPending)(),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_changes_dto_1.UpdateProfileDto]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "updateUser", null);
__decorate([
    (0, common_1.Patch)('updatePassword'),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    (0, access_decorators_1.AllowMfaPending)(),
    (0, throttler_1.Throttle)({ default: { limit: 30, ttl: 60_000 } }),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_changes_dto_1.UpdatePasswordDto]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "updatePassword", null);
__decorate([
    (0, common_1.Post)('add'),
    (0, common_1.HttpCode)(201),
    (0, access_decorators_1.Roles)(roles_1.USER_WRITERS),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_changes_dto_1.AddUserDto]),
    __metadata("design:returntype", void 0)
], UsersController.prototype, "add", null);
exports.UsersController = UsersController = __decorate([
    (0, swagger_1.ApiTags)('users'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('api/users'),
    __metadata("design:paramtypes", [users_service_1.UsersService])
], UsersController);
//# sourceMappingURL=users.controller.js.map