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
exports.MfaAdminService = void 0;
const common_1 = require("@nestjs/common");
const app_exception_1 = require("../common/app.exception");
const role_rules_1 = require("../users/role-rules");
const users_service_1 = require("../users/users.service");
const mfa_service_1 = require("./mfa.service");
/** An administrator's MFA actions on another user. */
let MfaAdminService = class MfaAdminService {
    users;
    mfa;
    constructor(users, mfa) {
        this.users = users;
        this.mfa = mfa;
    }
    /** Switches off the user's MFA and ends their sessions (they enrol again at the next sign-in if it is enforced). */
    async disableUserMfa(caller, userId) {
        const target = await this.users.findAccessible(caller, userId);
        const refused = (0, role_rules_1.checkManageable)(caller, target);
        if (refused)
            throw app_exception_1.AppException.forbidden(refused);
        if (!target.isMFAEnabled)
            throw app_exception_1.AppException.badRequest('MFA is not enabled for this user.');
        await this.mfa.clear(target.id);
        return { success: true };
    }
};
exports.MfaAdminService = MfaAdminService;
exports.MfaAdminService = MfaAdminService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [users_service_1.UsersService,
        mfa_service_1.MfaService])
], MfaAdminService);
//# sourceMappingURL=mfa-admin.service.js.map