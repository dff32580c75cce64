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
exports.LogoController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const roles_1 = require("../shared/roles");
const logo_dto_1 = require("./dto/logo.dto");
const logo_service_1 = require("./logo.service");
/** The logo uploader sits on the billing page (spec 001 §2.1 users/billing). */
const LOGO_WRITERS = [roles_1.Role.SITE_ADMIN, roles_1.Role.ADMINISTRATOR, roles_1.Role.STANDARD_ADMIN];
/**
 * Access: site admin, administrator and standard admin ask for an upload URL and save the logo of their
 * own organisation; every signed-in user reads their organisation's logo path (the header shows it).
 * The upload PUT is public by design: the signed, expiring, single-use URL bound to the organisation,
 * file name, size and type is the credential. The files are served to anyone holding their random,
 * unguessable name (an <img> cannot send a bearer token), as an image with nosniff.
 */
let LogoController = class LogoController {
    logo;
    constructor(logo) {
        this.logo = logo;
    }
    read(caller) {
        return this.logo.read(caller);
    }
    uploadUrl(caller, dto) {
        return this.logo.uploadUrl(caller, dto);
    }
    upload(token, req) {
        return this.logo.upload(token, req.body);
    }
    save(caller, dto) {
        return this.logo.save(caller, dto.logoPath);
    }
    serve(name, res) {
        const file = this.logo.file(name);
        res.set({
            'Content-Type': file.type,
            'X-Content-Type-Options': 'nosniff',
            'Content-Security-Policy': "default-src 'none'; sandbox",
            'Content-Disposition': 'inline',
            'Cache-Control': 'private, max-age=3600',
        });
        res.sendFile(file.path);
    }
};
exports.LogoController = LogoController;
__decorate([
    (0, common_1.Get)('api/logo/byMasterAccountId'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], LogoController.prototype, "read", null);
__decorate([
    (0, common_1.Post)('api/logo/get-upload-url'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    (0, access_decorators_1.Roles)(LOGO_WRITERS),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, logo_dto_1.LogoUploadUrlDto]),
    __metadata("design:returntype", void 0)
], LogoController.prototype, "uploadUrl", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Put)('api/logo/upload/:token'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, common_1.Req)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", void 0)
], LogoController.prototype, "upload", null);
__decorate([
    (0, common_1.Post)('api/logo/save'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    (0, access_decorators_1.Roles)(LOGO_WRITERS),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, logo_dto_1.SaveLogoDto]),
    __metadata("design:returntype", void 0)
], LogoController.prototype, "save", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Get)('files/logos/:name'),
    __param(0, (0, common_1.Param)('name')),
    __param(1, (0, common_1.Res)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", void 0)
], LogoController.prototype, "serve", null);
exports.LogoController = LogoController = __decorate([
    (0, swagger_1.ApiTags)('logo'),
    (0, common_1.Controller)(),
    __metadata("design:paramtypes", [logo_service_1.LogoService])
], LogoController);
//# sourceMappingURL=logo.controller.js.map