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
Object.defineProperty(exports, "__esModule", { value: true });
exports.NotificationWatermark = exports.NotificationReceipt = exports.Notification = void 0;
const typeorm_1 = require("typeorm");
const column_types_1 = require("../../database/column-types");
/** A published notification: for one user (userId) or for the whole organisation (userId null). */
let Notification = class Notification {
    id;
    organisationId;
    userId;
    type;
    content;
    createdAt;
};
exports.Notification = Notification;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)(),
    __metadata("design:type", Number)
], Notification.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], Notification.prototype, "organisationId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer', nullable: true }),
    __metadata("design:type", Object)
], Notification.prototype, "userId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 40 }),
    __metadata("design:type", String)
], Notification.prototype, "type", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'simple-json' }),
    __metadata("design:type", Object)
], Notification.prototype, "content", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ type: column_types_1.DATE_TYPE }),
    __metadata("design:type", Date)
], Notification.prototype, "createdAt", void 0);
exports.Notification = Notification = __decorate([
    (0, typeorm_1.Entity)('notifications'),
    (0, typeorm_1.Index)('IDX_notifications_org_user', ['organisationId', 'userId', 'id'])
], Notification);
/** One user's read/dismissed state of one notification; absent = unread and shown. */
let NotificationReceipt = class NotificationReceipt {
    notificationId;
    userId;
    read;
    dismissed;
    updatedAt;
};
exports.NotificationReceipt = NotificationReceipt;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'integer' }),
    __metadata("design:type", Number)
], NotificationReceipt.prototype, "notificationId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'integer' }),
    __metadata("design:type", Number)
], NotificationReceipt.prototype, "userId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], NotificationReceipt.prototype, "read", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], NotificationReceipt.prototype, "dismissed", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE, default: () => 'CURRENT_TIMESTAMP' }),
    __metadata("design:type", Date)
], NotificationReceipt.prototype, "updatedAt", void 0);
exports.NotificationReceipt = NotificationReceipt = __decorate([
    (0, typeorm_1.Entity)('notification_receipts'),
    (0, typeorm_1.Index)('IDX_notification_receipts_user', ['userId'])
], NotificationReceipt);
/** 'Dismiss All': every notification up to this id is dismissed for the user. */
let NotificationWatermark = class NotificationWatermark {
    userId;
    dismissedThroughId;
    updatedAt;
};
exports.NotificationWatermark = NotificationWatermark;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'integer' }),
    __metadata("design:type", Number)
], NotificationWatermark.prototype, "userId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer', default: 0 }),
    __metadata("design:type", Number)
], NotificationWatermark.prototype, "dismissedThroughId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE, default: () => 'CURRENT_TIMESTAMP' }),
    __metadata("design:type", Date)
], NotificationWatermark.prototype, "updatedAt", void 0);
exports.NotificationWatermark = NotificationWatermark = __decorate([
    (0, typeorm_1.Entity)('notification_watermarks')
], NotificationWatermark);
//# sourceMappingURL=notification.entity.js.map