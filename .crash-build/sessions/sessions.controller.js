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
exports.SessionsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const users_service_1 = require("../users/users.service");
const roles_1 = require("../shared/roles");
const sessions_service_1 = require("./sessions.service");
const force_logoff_dto_1 = require("./dto/force-logoff.dto");
/**
 * Access: the live sessions of an organisation and force log-off are for site admin and administrator
 * (spec 001 §2.1 users/user-sessions), confined to their own organisation (another organisation's user
 * is a 404). A user's last login is read by those who open the user roles page (support, site admin,
 * administrator), within their organisation (support: any). Another organisation's user is a 404.
 */
let SessionsController = class SessionsController {
    sessions;
    users;
    constructor(sessions, users) {
        this.sessions = sessions;
        this.users = users;
    }
    // Declared before ':userId' so that the literal path wins.
    userSessions(caller) {
        return this.sessions.userSessions(caller);
    }
    forceLogoff(caller, dto) {
        return this.sessions.forceLogoff(caller, dto.userIds);
    }
    async lastLogin(caller, userId) {
        const user = await this.users.findAccessible(caller, userId);
        return { userId: user.id, loginDateTime: (await this.sessions.lastLogin(user.id))?.toISOString() ?? null };
    }
};
exports.SessionsController = SessionsController;
__decorate([
    (0, common_1.Get)('user-sessions'),
    (0, access_decorators_1.Roles)([roles_1.Role.SITE_ADMIN, roles_1.Role.ADMINISTRATOR]),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], SessionsController.prototype, "userSessions", null);
__decorate([
    (0, common_1.Post)('force-logoff'),
    (0, common_1.HttpCode)(200),
    (0, access_decorators_1.Roles)([roles_1.Role.SITE_ADMIN, roles_1.Role.ADMINISTRATOR]),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, force_logoff_dto_1.ForceLogoffDto]),
    __metadata("design:returntype", void 0)
], SessionsController.prototype, "forceLogoff", null);
__decorate([
    (0, common_1.Get)(':userId'),
    (0, access_decorators_1.Roles)([roles_1.Role.E_SUPPORT, roles_1.Role.SITE_ADMIN, roles_1.Role.ADMINISTRATOR]),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)('userId', common_1.ParseIntPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Number]),
    __metadata("design:returntype", Promise)
], SessionsController.prototype, "lastLogin", null);
exports.SessionsController = SessionsController = __decorate([
    (0, swagger_1.ApiTags)('sessions'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('api/userLoginActivities'),
    __metadata("design:paramtypes", [sessions_service_1.SessionsService,
        users_service_1.UsersService])
], SessionsController);
//# sourceMappingURL=sessions.controller.js.map