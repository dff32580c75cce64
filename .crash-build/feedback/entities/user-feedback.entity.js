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
exports.UserFeedback = void 0;
const typeorm_1 = require("typeorm");
/** Feedback a signed-in user gave through the Give Feedback dialog (spec 001 §2.9, §3). */
let UserFeedback = class UserFeedback {
    id;
    title;
    content;
    userId;
    organisationId;
    createdAt;
};
exports.UserFeedback = UserFeedback;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)(),
    __metadata("design:type", Number)
], UserFeedback.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 200 }),
    __metadata("design:type", String)
], UserFeedback.prototype, "title", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], UserFeedback.prototype, "content", void 0);
__decorate([
    (0, typeorm_1.Index)('IDX_user_feedback_user'),
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], UserFeedback.prototype, "userId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], UserFeedback.prototype, "organisationId", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)(),
    __metadata("design:type", Date)
], UserFeedback.prototype, "createdAt", void 0);
exports.UserFeedback = UserFeedback = __decorate([
    (0, typeorm_1.Entity)('user_feedback')
], UserFeedback);
//# sourceMappingURL=user-feedback.entity.js.map