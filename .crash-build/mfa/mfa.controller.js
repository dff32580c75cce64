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
exports.MfaController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const throttler_1 = require("@nestjs/throttler");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const token_service_1 = require("../auth/token.service");
const roles_1 = require("../shared/roles");
const mfa_token_dto_1 = require("./dto/mfa-token.dto");
const mfa_service_1 = require("./mfa.service");
/**
 * Access: email-mfa is bound to a login's MFA challenge token; enable, verify and disable act on the
 * caller's own account, for every role, and stay open to an account that must still enrol.
 */
let MfaController = class MfaController {
    mfa;
    tokens;
    constructor(mfa, tokens) {
        this.mfa = mfa;
        this.tokens = tokens;
    }
    emailCode(authorization) {
        return this.mfa.sendEmailCode(this.tokens.verifyChallenge(authorization, 'mfa'));
    }
    enable(user) {
        return this.mfa.startEnrolment(user.id);
    }
    verify(user, dto) {
        return this.mfa.completeEnrolment(user.id, dto.token);
    }
    disable(user, dto) {
        return this.mfa.disableOwn(user.id, dto.token);
    }
};
exports.MfaController = MfaController;
__decorate([
    (0, access_decorators_1.Public)(),
    (0, throttler_1.Throttle)({ default: { limit: 5, ttl: 60_000 } }),
    (0, common_1.Post)('email-mfa'),
    (0, common_1.HttpCode)(200),
    __param(0, (0, common_1.Headers)('authorization')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], MfaController.prototype, "emailCode", null);
__decorate([
    (0, common_1.Post)('enable'),
    (0, common_1.HttpCode)(200),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    (0, access_decorators_1.AllowMfaPending)(),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], MfaController.prototype, "enable", null);
__decorate([
    (0, common_1.Post)('verify'),
    (0, common_1.HttpCode)(200),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    (0, access_decorators_1.AllowMfaPending)(),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, mfa_token_dto_1.MfaTokenDto]),
    __metadata("design:returntype", void 0)
], MfaController.prototype, "verify", null);
__decorate([
    (0, common_1.Post)('disable'),
    (0, common_1.HttpCode)(200),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    (0, access_decorators_1.AllowMfaPending)(),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, mfa_token_dto_1.MfaTokenDto]),
    __metadata("design:returntype", void 0)
], MfaController.prototype, "disable", null);
exports.MfaController = MfaController = __decorate([
    (0, swagger_1.ApiTags)('mfa'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('mfa'),
    __metadata("design:paramtypes", [mfa_service_1.MfaService,
        token_service_1.TokenService])
], MfaController);
//# sourceMappingURL=mfa.controller.js.map