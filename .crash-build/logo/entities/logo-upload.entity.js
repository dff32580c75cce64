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
exports.LogoUpload = void 0;
const typeorm_1 = require("typeorm");
const column_types_1 = require("../../database/column-types");
/** One upload URL handed out: its nonce makes the URL good for one PUT only. */
let LogoUpload = class LogoUpload {
    nonce;
    organisationId;
    /** The file name under DATA_DIR/logos (random, so the served URL cannot be guessed). */
    storedName;
    expiresAt;
    usedAt;
    createdAt;
};
exports.LogoUpload = LogoUpload;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'varchar', length: 64 }),
    __metadata("design:type", String)
], LogoUpload.prototype, "nonce", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], LogoUpload.prototype, "organisationId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 100, unique: true }),
    __metadata("design:type", String)
], LogoUpload.prototype, "storedName", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE }),
    __metadata("design:type", Date)
], LogoUpload.prototype, "expiresAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE, nullable: true }),
    __metadata("design:type", Object)
], LogoUpload.prototype, "usedAt", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)(),
    __metadata("design:type", Date)
], LogoUpload.prototype, "createdAt", void 0);
exports.LogoUpload = LogoUpload = __decorate([
    (0, typeorm_1.Entity)('logo_uploads')
], LogoUpload);
//# sourceMappingURL=logo-upload.entity.js.map