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
exports.RolesGuard = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const app_exception_1 = require("../app.exception");
const access_decorators_1 = require("../decorators/access.decorators");
const roles_1 = require("../../shared/roles");
const messages_1 = require("../../shared/messages");
/**
 * Default-deny role check. A route must be @Public(), @ServiceApi() or carry @Roles(...); a route
 * with none of them is refused, so a forgotten decorator fails closed. Also keeps an account whose
 * MFA is enforced but not enabled to the routes marked @AllowMfaPending().
 */
let RolesGuard = class RolesGuard {
    reflector;
    constructor(reflector) {
        this.reflector = reflector;
    }
    canActivate(context) {
        if (context.getType() !== 'http')
            return true;
        const targets = [context.getHandler(), context.getClass()];
        if (this.reflector.getAllAndOverride(access_decorators_1.IS_PUBLIC_KEY, targets))
            return true;
        if (this.reflector.getAllAndOverride(access_decorators_1.IS_SERVICE_API_KEY, targets))
            return true;
        const roles = this.reflector.getAllAndOverride(access_decorators_1.Roles, targets);
        if (!roles || roles.length === 0)
            throw app_exception_1.AppException.forbidden('This route is not open to any role.');
        const user = context.switchToHttp().getRequest().user;
        if (!user)
            throw app_exception_1.AppException.unauthorized();
        if (!(0, roles_1.hasAnyRole)(user.roles, roles))
            throw app_exception_1.AppException.forbidden();
        if (user.isMFAEnforced && !user.isMFAEnabled && !this.reflector.getAllAndOverride(access_decorators_1.ALLOW_MFA_PENDING_KEY, targets)) {
            throw app_exception_1.AppException.forbidden('Site Admin has enforced MFA on your account. You must enable MFA to proceed further.', messages_1.ERROR_CODES.MFA_ENROLMENT_REQUIRED);
        }
        return true;
    }
};
exports.RolesGuard = RolesGuard;
exports.RolesGuard = RolesGuard = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [core_1.Reflector])
], RolesGuard);
//# sourceMappingURL=roles.guard.js.map