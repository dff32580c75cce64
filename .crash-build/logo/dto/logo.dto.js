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
exports.SaveLogoDto = exports.LogoUploadUrlDto = exports.LOGO_PATH_PATTERN = void 0;
const class_validator_1 = require("class-validator");
const limits_1 = require("../../shared/limits");
const organisation_admin_1 = require("../../shared/organisation-admin");
/** The path a stored logo is served from: /files/logos/<32 hex>.<ext>. */
exports.LOGO_PATH_PATTERN = /^\/files\/logos\/([a-f0-9]{32}\.(?:png|jpg|gif|webp))$/;
class LogoUploadUrlDto {
    fileName;
    fileSize;
    mimeType;
}
exports.LogoUploadUrlDto = LogoUploadUrlDto;
__decorate([
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.IsNotEmpty)({ message: 'fileName is required' }),
    (0, class_validator_1.MaxLength)(255, { message: 'fileName must be at most 255 characters' }),
    __metadata("design:type", String)
], LogoUploadUrlDto.prototype, "fileName", void 0);
__decorate([
    (0, class_validator_1.IsInt)({ message: 'fileSize must be the size of the file in bytes' }),
    (0, class_validator_1.Min)(1, { message: 'fileSize must be the size of the file in bytes' }),
    (0, class_validator_1.Max)(limits_1.LIMITS.LOGO_MAX_BYTES, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_TOO_LARGE }),
    __metadata("design:type", Number)
], LogoUploadUrlDto.prototype, "fileSize", void 0);
__decorate([
    (0, class_validator_1.IsIn)(organisation_admin_1.LOGO_MIME_TYPES, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_NOT_IMAGE }),
    __metadata("design:type", String)
], LogoUploadUrlDto.prototype, "mimeType", void 0);
class SaveLogoDto {
    logoPath;
}
exports.SaveLogoDto = SaveLogoDto;
__decorate([
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.Matches)(exports.LOGO_PATH_PATTERN, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_NOT_UPLOADED }),
    __metadata("design:type", String)
], SaveLogoDto.prototype, "logoPath", void 0);
//# sourceMappingURL=logo.dto.js.map