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
exports.SignedFilesController = exports.ProcessedDataController = exports.NotificationsController = void 0;
const common_1 = require("@nestjs/common");
const platform_express_1 = require("@nestjs/platform-express");
const swagger_1 = require("@nestjs/swagger");
const node_fs_1 = require("node:fs");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const roles_1 = require("../shared/roles");
const notification_dto_1 = require("./dto/notification.dto");
const file_links_service_1 = require("./file-links.service");
const notifications_service_1 = require("./notifications.service");
/**
 * Access: every signed-in role reads, reads-marks and dismisses its OWN notifications (its user's and
 * its organisation's; another organisation's notification is a 404). Publishing and report uploads
 * are for back-end systems only, with X-Api-Key = SERVICE_API_KEY.
 */
let NotificationsController = class NotificationsController {
    notifications;
    constructor(notifications) {
        this.notifications = notifications;
    }
    list(user) {
        return this.notifications.list(user);
    }
    dismissAll(user) {
        return this.notifications.dismissAll(user);
    }
    dismiss(user, { id }) {
        return this.notifications.dismiss(user, id);
    }
    markRead(user, { id }) {
        return this.notifications.markRead(user, id);
    }
    publish(dto) {
        return this.notifications.publish(dto);
    }
    uploadReport(dto, file) {
        return this.notifications.storeReport(dto.organisationId, file);
    }
};
exports.NotificationsController = NotificationsController;
__decorate([
    (0, common_1.Get)(),
    (0, swagger_1.ApiBearerAuth)(),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], NotificationsController.prototype, "list", null);
__decorate([
    (0, common_1.Post)('dismiss-all'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], NotificationsController.prototype, "dismissAll", null);
__decorate([
    (0, common_1.Post)(':id/dismiss'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, notification_dto_1.NotificationIdParam]),
    __metadata("design:returntype", void 0)
], NotificationsController.prototype, "dismiss", null);
__decorate([
    (0, common_1.Post)(':id/read'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, notification_dto_1.NotificationIdParam]),
    __metadata("design:returntype", void 0)
], NotificationsController.prototype, "markRead", null);
__decorate([
    (0, common_1.Post)(),
    (0, common_1.HttpCode)(201),
    (0, access_decorators_1.ServiceApi)(),
    (0, swagger_1.ApiSecurity)('service'),
    __param(0, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [notification_dto_1.PublishNotificationDto]),
    __metadata("design:returntype", void 0)
], NotificationsController.prototype, "publish", null);
__decorate([
    (0, common_1.Post)('reports'),
    (0, common_1.HttpCode)(201),
    (0, access_decorators_1.ServiceApi)(),
    (0, swagger_1.ApiSecurity)('service'),
    (0, swagger_1.ApiConsumes)('multipart/form-data'),
    (0, common_1.UseInterceptors)((0, platform_express_1.FileInterceptor)('file', { limits: { fileSize: notifications_service_1.MAX_REPORT_BYTES, files: 1 } })),
    __param(0, (0, common_1.Body)()),
    __param(1, (0, common_1.UploadedFile)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [notification_dto_1.UploadReportDto, Object]),
    __metadata("design:returntype", void 0)
], NotificationsController.prototype, "uploadReport", null);
exports.NotificationsController = NotificationsController = __decorate([
    (0, swagger_1.ApiTags)('notifications'),
    (0, common_1.Controller)('api/notifications'),
    __metadata("design:paramtypes", [notifications_service_1.NotificationsService])
], NotificationsController);
/** Access: every signed-in role, for its own organisation's process logs only. */
let ProcessedDataController = class ProcessedDataController {
    notifications;
    constructor(notifications) {
        this.notifications = notifications;
    }
    processLogUrl(user, { portfolioId }) {
        return this.notifications.processLogUrl(user, portfolioId);
    }
};
exports.ProcessedDataController = ProcessedDataController;
__decorate([
    (0, common_1.Get)('processLogUrl/:portfolioId'),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Param)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, notification_dto_1.PortfolioIdParam]),
    __metadata("design:returntype", void 0)
], ProcessedDataController.prototype, "processLogUrl", null);
exports.ProcessedDataController = ProcessedDataController = __decorate([
    (0, swagger_1.ApiTags)('notifications'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('api/processedData'),
    __metadata("design:paramtypes", [notifications_service_1.NotificationsService])
], ProcessedDataController);
/**
 * Access: public, but only through a link this server signed within the last hour (spec 001 §9);
 * a tampered or expired link is a 403. Serves /files/reports/... and /files/process-logs/... only.
 */
let SignedFilesController = class SignedFilesController {
    links;
    constructor(links) {
        this.links = links;
    }
    report(org, name, q, res) {
        return this.serve('reports', org, name, q, res);
    }
    processLog(org, name, q, res) {
        return this.serve('process-logs', org, name, q, res);
    }
    serve(area, org, name, q, res) {
        const path = this.links.verify(area, org, name, q.expires, q.sig);
        // Stored reports carry a random prefix; the download is named after the original file.
        const shown = area === 'reports' ? name.replace(/^[0-9a-f]{12}-/, '') : name;
        res.setHeader('Cache-Control', 'private, no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        return new common_1.StreamableFile((0, node_fs_1.createReadStream)(path), {
            type: 'application/octet-stream',
            disposition: `attachment; filename="${shown.replace(/"/g, '')}"`,
        });
    }
};
exports.SignedFilesController = SignedFilesController;
__decorate([
    (0, common_1.Get)('reports/:organisationId/:name'),
    (0, access_decorators_1.Public)(),
    __param(0, (0, common_1.Param)('organisationId')),
    __param(1, (0, common_1.Param)('name')),
    __param(2, (0, common_1.Query)()),
    __param(3, (0, common_1.Res)({ passthrough: true })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, Object, Object]),
    __metadata("design:returntype", void 0)
], SignedFilesController.prototype, "report", null);
__decorate([
    (0, common_1.Get)('process-logs/:organisationId/:name'),
    (0, access_decorators_1.Public)(),
    __param(0, (0, common_1.Param)('organisationId')),
    __param(1, (0, common_1.Param)('name')),
    __param(2, (0, common_1.Query)()),
    __param(3, (0, common_1.Res)({ passthrough: true })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, Object, Object]),
    __metadata("design:returntype", void 0)
], SignedFilesController.prototype, "processLog", null);
exports.SignedFilesController = SignedFilesController = __decorate([
    (0, swagger_1.ApiTags)('notifications'),
    (0, common_1.Controller)('files'),
    __metadata("design:paramtypes", [file_links_service_1.FileLinksService])
], SignedFilesController);
//# sourceMappingURL=notifications.controller.js.map