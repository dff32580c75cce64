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
exports.BillingContactController = exports.PrimaryBillingController = exports.BILLING_ROLES = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const roles_1 = require("../shared/roles");
const billing_service_1 = require("./billing.service");
const contact_profile_dto_1 = require("./dto/contact-profile.dto");
/** Spec 001 §2.1: users/billing is for site admin, administrator and standard admin. */
exports.BILLING_ROLES = [roles_1.Role.SITE_ADMIN, roles_1.Role.ADMINISTRATOR, roles_1.Role.STANDARD_ADMIN];
/**
 * Access: site admin, administrator and standard admin (spec 001 §2.1 users/billing), each only for
 * their own organisation: the organisation comes from the caller, never from the request, and an id
 * of another organisation's contact is a 404. E-Support has no billing page.
 */
let PrimaryBillingController = class PrimaryBillingController {
    billing;
    constructor(billing) {
        this.billing = billing;
    }
    read(caller) {
        return this.billing.read(caller, 'PRIMARY');
    }
    create(caller, dto) {
        return this.billing.create(caller, 'PRIMARY', dto);
    }
    update(caller, dto) {
        return this.billing.update(caller, 'PRIMARY', dto);
    }
};
exports.PrimaryBillingController = PrimaryBillingController;
__decorate([
    (0, common_1.Get)('byMasterAccountId'),
    (0, access_decorators_1.Roles)(exports.BILLING_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], PrimaryBillingController.prototype, "read", null);
__decorate([
    (0, common_1.Post)(),
    (0, access_decorators_1.Roles)(exports.BILLING_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, contact_profile_dto_1.CreateContactProfileDto]),
    __metadata("design:returntype", void 0)
], PrimaryBillingController.prototype, "create", null);
__decorate([
    (0, common_1.Put)(),
    (0, access_decorators_1.Roles)(exports.BILLING_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, contact_profile_dto_1.UpdateContactProfileDto]),
    __metadata("design:returntype", void 0)
], PrimaryBillingController.prototype, "update", null);
exports.PrimaryBillingController = PrimaryBillingController = __decorate([
    (0, swagger_1.ApiTags)('billing'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('api/primaryBillingInformation'),
    __metadata("design:paramtypes", [billing_service_1.BillingService])
], PrimaryBillingController);
/** Access: as {@link PrimaryBillingController}, for the billing contact. */
let BillingContactController = class BillingContactController {
    billing;
    constructor(billing) {
        this.billing = billing;
    }
    read(caller) {
        return this.billing.read(caller, 'BILLING');
    }
    create(caller, dto) {
        return this.billing.create(caller, 'BILLING', dto);
    }
    update(caller, dto) {
        return this.billing.update(caller, 'BILLING', dto);
    }
};
exports.BillingContactController = BillingContactController;
__decorate([
    (0, common_1.Get)('byMasterAccountId'),
    (0, access_decorators_1.Roles)(exports.BILLING_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], BillingContactController.prototype, "read", null);
__decorate([
    (0, common_1.Post)(),
    (0, access_decorators_1.Roles)(exports.BILLING_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, contact_profile_dto_1.CreateContactProfileDto]),
    __metadata("design:returntype", void 0)
], BillingContactController.prototype, "create", null);
__decorate([
    (0, common_1.Put)(),
    (0, access_decorators_1.Roles)(exports.BILLING_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, contact_profile_dto_1.UpdateContactProfileDto]),
    __metadata("design:returntype", void 0)
], BillingContactController.prototype, "update", null);
exports.BillingContactController = BillingContactController = __decorate([
    (0, swagger_1.ApiTags)('billing'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('api/billingInformation'),
    __metadata("design:paramtypes", [billing_service_1.BillingService])
], BillingContactController);
//# sourceMappingURL=billing.controller.js.map