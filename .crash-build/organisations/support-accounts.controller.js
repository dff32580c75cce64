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
exports.SupportAccountsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const app_config_module_1 = require("../config/app-config.module");
const roles_1 = require("../shared/roles");
const create_esupport_dto_1 = require("./dto/create-esupport.dto");
const organisations_service_1 = require("./organisations.service");
/**
 * Access: E-Support only (spec 001 §6): creating a support account, and reading the fixed domain the
 * Create E-Support page shows as its addon. The new account joins the caller's (vendor) organisation.
 */
let SupportAccountsController = class SupportAccountsController {
    organisations;
    config;
    constructor(organisations, config) {
        this.organisations = organisations;
        this.config = config;
    }
    createESupport(caller, dto) {
        return this.organisations.createESupport(caller, dto);
    }
    domain() {
        return { domain: this.config.supportEmailDomain };
    }
};
exports.SupportAccountsController = SupportAccountsController;
__decorate([
    (0, common_1.Post)('api/users/add-esupport'),
    (0, access_decorators_1.Roles)([roles_1.Role.E_SUPPORT]),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, create_esupport_dto_1.CreateESupportDto]),
    __metadata("design:returntype", void 0)
], SupportAccountsController.prototype, "createESupport", null);
__decorate([
    (0, common_1.Get)('api/support-accounts/domain'),
    (0, access_decorators_1.Roles)([roles_1.Role.E_SUPPORT]),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], SupportAccountsController.prototype, "domain", null);
exports.SupportAccountsController = SupportAccountsController = __decorate([
    (0, swagger_1.ApiTags)('organisations'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)(),
    __param(1, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [organisations_service_1.OrganisationsService, Object])
], SupportAccountsController);
//# sourceMappingURL=support-accounts.controller.js.map