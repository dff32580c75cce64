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
exports.AnnouncementsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const roles_1 = require("../shared/roles");
const announcements_service_1 = require("./announcements.service");
const create_announcement_dto_1 = require("./dto/create-announcement.dto");
/**
 * Access: only E-Support publishes (to every organisation or one) and lists the organisations it may address. Every signed-in role lists, reads the
 * summary of and dismisses the announcements published to everyone and to its own organisation
 * (E-Support: all); another organisation's announcement is answered 404.
 */
let AnnouncementsController = class AnnouncementsController {
    announcements;
    constructor(announcements) {
        this.announcements = announcements;
    }
    create(user, dto) {
        return this.announcements.create(user, dto);
    }
    list(user) {
        return this.announcements.list(user);
    }
    audiences() {
        return this.announcements.audiences();
    }
    summary(user) {
        return this.announcements.summary(user);
    }
    dismiss(user, id) {
        return this.announcements.dismiss(user, id);
    }
};
exports.AnnouncementsController = AnnouncementsController;
__decorate([
    (0, common_1.Post)(),
    (0, access_decorators_1.Roles)([roles_1.Role.E_SUPPORT]),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, create_announcement_dto_1.CreateAnnouncementDto]),
    __metadata("design:returntype", void 0)
], AnnouncementsController.prototype, "create", null);
__decorate([
    (0, common_1.Get)(),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], AnnouncementsController.prototype, "list", null);
__decorate([
    (0, common_1.Get)('organisations'),
    (0, access_decorators_1.Roles)([roles_1.Role.E_SUPPORT]),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], AnnouncementsController.prototype, "audiences", null);
__decorate([
    (0, common_1.Get)('summary'),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], AnnouncementsController.prototype, "summary", null);
__decorate([
    (0, common_1.Post)(':id/dismiss'),
    (0, common_1.HttpCode)(200),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)('id', common_1.ParseIntPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Number]),
    __metadata("design:returntype", void 0)
], AnnouncementsController.prototype, "dismiss", null);
exports.AnnouncementsController = AnnouncementsController = __decorate([
    (0, swagger_1.ApiTags)('announcements'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('api/announcements'),
    __metadata("design:paramtypes", [announcements_service_1.AnnouncementsService])
], AnnouncementsController);
//# sourceMappingURL=announcements.controller.js.map