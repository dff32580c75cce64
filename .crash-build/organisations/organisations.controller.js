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
exports.OrganisationsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const roles_1 = require("../shared/roles");
const create_site_admin_dto_1 = require("./dto/create-site-admin.dto");
const organisations_service_1 = require("./organisations.service");
/**
 * Access: E-Support only (spec 001 §6 'Support creates site admin and e-support accounts'). Creating a
 * site admin opens a new organisation, so no other role, in any organisation, may call it.
 */
let OrganisationsController = class OrganisationsController {
    organisations;
    constructor(organisations) {
        this.organisations = organisations;
    }
    createSiteAdmin(dto) {
        return this.organisations.createSiteAdmin(dto);
    }
};
exports.OrganisationsController = OrganisationsController;
__decorate([
    (0, common_1.Post)(),
    (0, access_decorators_1.Roles)([roles_1.Role.E_SUPPORT]),
    __param(0, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [create_site_admin_dto_1.CreateSiteAdminDto]),
    __metadata("design:returntype", void 0)
], OrganisationsController.prototype, "createSiteAdmin", null);
exports.OrganisationsController = OrganisationsController = __decorate([
    (0, swagger_1.ApiTags)('organisations'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('auth/site-admin'),
    __metadata("design:paramtypes", [organisations_service_1.OrganisationsService])
], OrganisationsController);
//# sourceMappingURL=organisations.controller.js.map