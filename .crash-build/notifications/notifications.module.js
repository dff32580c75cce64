"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.NotificationsModule = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const user_entity_1 = require("../users/entities/user.entity");
const notification_entity_1 = require("./entities/notification.entity");
const file_links_service_1 = require("./file-links.service");
const notifications_controller_1 = require("./notifications.controller");
const notifications_gateway_1 = require("./notifications.gateway");
const notifications_service_1 = require("./notifications.service");
/** Real-time notifications (issue 6): storage, the socket.io gateway, publishing, signed download links. */
let NotificationsModule = class NotificationsModule {
};
exports.NotificationsModule = NotificationsModule;
exports.NotificationsModule = NotificationsModule = __decorate([
    (0, common_1.Module)({
        imports: [typeorm_1.TypeOrmModule.forFeature([notification_entity_1.Notification, notification_entity_1.NotificationReceipt, notification_entity_1.NotificationWatermark, user_entity_1.User, organisation_entity_1.Organisation])],
        controllers: [notifications_controller_1.NotificationsController, notifications_controller_1.ProcessedDataController, notifications_controller_1.SignedFilesController],
        providers: [notifications_service_1.NotificationsService, notifications_gateway_1.NotificationsGateway, file_links_service_1.FileLinksService],
        exports: [notifications_service_1.NotificationsService, file_links_service_1.FileLinksService],
    })
], NotificationsModule);
//# sourceMappingURL=notifications.module.js.map