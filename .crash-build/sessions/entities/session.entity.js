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
exports.Session = void 0;
const typeorm_1 = require("typeorm");
const column_types_1 = require("../../database/column-types");
/** One sign-in: its id sits in every access token, so ending it ends the tokens at once. */
let Session = class Session {
    id;
    userId;
    organisationId;
    /** The sign-in time. */
    createdAt;
    lastRefreshAt;
    endedAt;
    endReason;
    ip;
    userAgent;
    /** 'password', 'sso' */
    method;
};
exports.Session = Session;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'varchar', length: 36 }),
    __metadata("design:type", String)
], Session.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], Session.prototype, "userId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], Session.prototype, "organisationId", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)(),
    __metadata("design:type", Date)
], Session.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE }),
    __metadata("design:type", Date)
], Session.prototype, "lastRefreshAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE, nullable: true }),
    __metadata("design:type", Object)
], Session.prototype, "endedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 30, nullable: true }),
    __metadata("design:type", Object)
], Session.prototype, "endReason", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 64, nullable: true }),
    __metadata("design:type", Object)
], Session.prototype, "ip", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 300, nullable: true }),
    __metadata("design:type", Object)
], Session.prototype, "userAgent", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 20, default: 'password' }),
    __metadata("design:type", String)
], Session.prototype, "method", void 0);
exports.Session = Session = __decorate([
    (0, typeorm_1.Entity)('sessions'),
    (0, typeorm_1.Index)('IDX_sessions_user', ['userId', 'endedAt']),
    (0, typeorm_1.Index)('IDX_sessions_org', ['organisationId', 'endedAt'])
], Session);
//# sourceMappingURL=session.entity.js.map