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
exports.AnnouncementDismissal = void 0;
const typeorm_1 = require("typeorm");
/** A user's dismissal of an announcement: the banner stays hidden for them. */
let AnnouncementDismissal = class AnnouncementDismissal {
    id;
    announcementId;
    userId;
    createdAt;
};
exports.AnnouncementDismissal = AnnouncementDismissal;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)(),
    __metadata("design:type", Number)
], AnnouncementDismissal.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], AnnouncementDismissal.prototype, "announcementId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], AnnouncementDismissal.prototype, "userId", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)(),
    __metadata("design:type", Date)
], AnnouncementDismissal.prototype, "createdAt", void 0);
exports.AnnouncementDismissal = AnnouncementDismissal = __decorate([
    (0, typeorm_1.Entity)('announcement_dismissals'),
    (0, typeorm_1.Index)('IDX_announcement_dismissals_unique', ['announcementId', 'userId'], { unique: true })
], AnnouncementDismissal);
//# sourceMappingURL=announcement-dismissal.entity.js.map