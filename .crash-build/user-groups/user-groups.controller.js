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
exports.UserGroupsController = exports.USER_GROUP_MAPPING_ROLES = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const roles_1 = require("../shared/roles");
const user_group_dto_1 = require("./dto/user-group.dto");
const user_groups_service_1 = require("./user-groups.service");
/** Who opens the user group mapping view users/{userId}/user-groups (spec 000 §6, 001 §2.1). */
exports.USER_GROUP_MAPPING_ROLES = [roles_1.Role.SITE_ADMIN, roles_1.Role.ADMINISTRATOR, roles_1.Role.STANDARD_ADMIN];
/**
 * Access: a user's group mapping is read by site admins, administrators and standard admins; memberships are
 * added and removed, and groups created, by the writers (site admin, administrator). All within the caller's
 * organisation: another organisation's user or group is a 404.
 */
let UserGroupsController = class UserGroupsController {
    userGroups;
    constructor(userGroups) {
        this.userGroups = userGroups;
    }
    mapping(caller, userId) {
        return this.userGroups.mapping(caller, userId);
    }
    add(caller, userId, groupId) {
        return this.userGroups.addMember(caller, userId, groupId);
    }
    remove(caller, userId, groupId) {
        return this.userGroups.removeMember(caller, userId, groupId);
    }
    create(caller, dto) {
        return this.userGroups.create(caller, dto);
    }
};
exports.UserGroupsController = UserGroupsController;
__decorate([
    (0, common_1.Get)('users/:userId/user-groups'),
    (0, access_decorators_1.Roles)(exports.USER_GROUP_MAPPING_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)('userId', common_1.ParseIntPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Number]),
    __metadata("design:returntype", void 0)
], UserGroupsController.prototype, "mapping", null);
__decorate([
    (0, common_1.Put)('users/:userId/user-groups/:groupId'),
    (0, access_decorators_1.Roles)(roles_1.USER_WRITERS),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)('userId', common_1.ParseIntPipe)),
    __param(2, (0, common_1.Param)('groupId', common_1.ParseIntPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Number, Number]),
    __metadata("design:returntype", void 0)
], UserGroupsController.prototype, "add", null);
__decorate([
    (0, common_1.Delete)('users/:userId/user-groups/:groupId'),
    (0, access_decorators_1.Roles)(roles_1.USER_WRITERS),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)('userId', common_1.ParseIntPipe)),
    __param(2, (0, common_1.Param)('groupId', common_1.ParseIntPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Number, Number]),
    __metadata("design:returntype", void 0)
], UserGroupsController.prototype, "remove", null);
__decorate([
    (0, common_1.Post)('user-groups'),
    (0, access_decorators_1.Roles)(roles_1.USER_WRITERS),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_group_dto_1.CreateUserGroupDto]),
    __metadata("design:returntype", void 0)
], UserGroupsController.prototype, "create", null);
exports.UserGroupsController = UserGroupsController = __decorate([
    (0, swagger_1.ApiTags)('user-groups'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('api'),
    __metadata("design:paramtypes", [user_groups_service_1.UserGroupsService])
], UserGroupsController);
//# sourceMappingURL=user-groups.controller.js.map