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
exports.CreateSiteAdminDto = void 0;
const class_transformer_1 = require("class-transformer");
const transforms_1 = require("../../common/transforms");
const class_validator_1 = require("class-validator");
const limits_1 = require("../../shared/limits");
const organisation_admin_1 = require("../../shared/organisation-admin");
const roles_1 = require("../../shared/roles");
const EMAIL_OR_EMPTY = /^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * POST /auth/site-admin (spec 001 §3 'Site admin creation payload', §5, §9). The application ids:
 * masterTaxManagerApplicationIds is [] (off, the default) or [1]; masterCorporateActionsApplicationIds
 * is always [2] (on and read-only in the form). userRoleIds is always [2] (Site Admin).
 */
class CreateSiteAdminDto {
    userEmail = '';
    accountType = 'Organization';
    /** Required for an Organization; an Individual account has no company name. */
    organizationName = '';
    organizationCode = '';
    allowedUsersNumber = 1;
    maxConcurrentUsers = 1;
    maxPortfolios = 0;
    masterTaxManagerApplicationIds = [];
    masterCorporateActionsApplicationIds = [organisation_admin_1.APPLICATION_IDS.CA_VIEWER];
    userRoleIds = [roles_1.Role.SITE_ADMIN];
    isSSO = false;
    /** Kept only when SSO is on (the field shows only then). */
    ssoLogoutUrl;
}
exports.CreateSiteAdminDto = CreateSiteAdminDto;
__decorate([
    (0, class_transformer_1.Transform)(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value === undefined || value === null ? '' : value)),
    (0, class_validator_1.IsString)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.EMAIL_EMPTY }),
    (0, class_validator_1.IsNotEmpty)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.EMAIL_EMPTY }),
    (0, class_validator_1.MaxLength)(limits_1.LIMITS.EMAIL_MAX, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.EMAIL_TOO_LONG }),
    (0, class_validator_1.Matches)(EMAIL_OR_EMPTY, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.INVALID_EMAIL }),
    __metadata("design:type", Object)
], CreateSiteAdminDto.prototype, "userEmail", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(organisation_admin_1.ACCOUNT_TYPES, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.ACCOUNT_TYPE_INVALID }),
    __metadata("design:type", String)
], CreateSiteAdminDto.prototype, "accountType", void 0);
__decorate([
    (0, class_transformer_1.Transform)(transforms_1.trimOrEmpty),
    (0, class_validator_1.ValidateIf)((o) => o.accountType !== 'Individual'),
    (0, class_validator_1.IsString)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.COMPANY_NAME_REQUIRED }),
    (0, class_validator_1.IsNotEmpty)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.COMPANY_NAME_REQUIRED }),
    (0, class_validator_1.MaxLength)(200, { message: 'Company name must be at most 200 characters' }),
    __metadata("design:type", Object)
], CreateSiteAdminDto.prototype, "organizationName", void 0);
__decorate([
    (0, class_transformer_1.Transform)(transforms_1.trimOrEmpty),
    (0, class_validator_1.IsString)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.CODE_REQUIRED }),
    (0, class_validator_1.IsNotEmpty)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.CODE_REQUIRED }),
    (0, class_validator_1.MaxLength)(limits_1.LIMITS.ORGANISATION_CODE_MAX, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.CODE_TOO_LONG }),
    __metadata("design:type", Object)
], CreateSiteAdminDto.prototype, "organizationCode", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.ALLOWED_USERS_MIN }),
    (0, class_validator_1.Min)(1, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.ALLOWED_USERS_MIN }),
    (0, class_validator_1.Max)(1_000_000, { message: 'Allowed users must be at most 1000000' }),
    __metadata("design:type", Object)
], CreateSiteAdminDto.prototype, "allowedUsersNumber", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.CONCURRENT_USERS_MIN }),
    (0, class_validator_1.Min)(1, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.CONCURRENT_USERS_MIN }),
    (0, class_validator_1.Max)(1_000_000, { message: 'Concurrent users must be at most 1000000' }),
    __metadata("design:type", Object)
], CreateSiteAdminDto.prototype, "maxConcurrentUsers", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.MAX_PORTFOLIOS_NEGATIVE }),
    (0, class_validator_1.Min)(0, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.MAX_PORTFOLIOS_NEGATIVE }),
    (0, class_validator_1.Max)(1_000_000, { message: 'Max portfolios must be at most 1000000' }),
    __metadata("design:type", Object)
], CreateSiteAdminDto.prototype, "maxPortfolios", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsArray)({ message: 'masterTaxManagerApplicationIds must be a list of application ids' }),
    (0, class_validator_1.IsIn)([organisation_admin_1.APPLICATION_IDS.TAX_MANAGER], { each: true, message: 'masterTaxManagerApplicationIds may hold only the tax manager application (1)' }),
    __metadata("design:type", Array)
], CreateSiteAdminDto.prototype, "masterTaxManagerApplicationIds", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsArray)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.CORPORATE_ACTIONS_APP_REQUIRED }),
    (0, class_validator_1.ArrayContains)([organisation_admin_1.APPLICATION_IDS.CA_VIEWER], { message: organisation_admin_1.ORG_ADMIN_MESSAGES.CORPORATE_ACTIONS_APP_REQUIRED }),
    (0, class_validator_1.IsIn)([organisation_admin_1.APPLICATION_IDS.CA_VIEWER], { each: true, message: organisation_admin_1.ORG_ADMIN_MESSAGES.CORPORATE_ACTIONS_APP_REQUIRED }),
    __metadata("design:type", Array)
], CreateSiteAdminDto.prototype, "masterCorporateActionsApplicationIds", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsArray)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.SITE_ADMIN_ROLE_ONLY }),
    (0, class_validator_1.ArrayContains)([roles_1.Role.SITE_ADMIN], { message: organisation_admin_1.ORG_ADMIN_MESSAGES.SITE_ADMIN_ROLE_ONLY }),
    (0, class_validator_1.IsIn)([roles_1.Role.SITE_ADMIN], { each: true, message: organisation_admin_1.ORG_ADMIN_MESSAGES.SITE_ADMIN_ROLE_ONLY }),
    __metadata("design:type", Array)
], CreateSiteAdminDto.prototype, "userRoleIds", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsBoolean)({ message: 'isSSO must be true or false' }),
    __metadata("design:type", Object)
], CreateSiteAdminDto.prototype, "isSSO", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Transform)(transforms_1.trimOrEmpty),
    (0, class_validator_1.ValidateIf)((o) => o.isSSO === true && o.ssoLogoutUrl !== ''),
    (0, class_validator_1.IsString)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.SSO_LOGOUT_URL_INVALID }),
    (0, class_validator_1.MaxLength)(500, { message: 'SSO logout URL must be at most 500 characters' }),
    (0, class_validator_1.IsUrl)({ require_protocol: true, protocols: ['http', 'https'], require_tld: false }, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.SSO_LOGOUT_URL_INVALID }),
    __metadata("design:type", String)
], CreateSiteAdminDto.prototype, "ssoLogoutUrl", void 0);
//# sourceMappingURL=create-site-admin.dto.js.map