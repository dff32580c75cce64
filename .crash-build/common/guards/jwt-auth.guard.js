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
exports.JwtAuthGuard = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const passport_1 = require("@nestjs/passport");
const app_exception_1 = require("../app.exception");
const access_decorators_1 = require("../decorators/access.decorators");
const token_service_1 = require("../../auth/token.service");
/** Global and default-deny: every HTTP route needs a valid access token unless @Public() or @ServiceApi(). */
let JwtAuthGuard = class JwtAuthGuard extends (0, passport_1.AuthGuard)('jwt') {
    reflector;
    constructor(reflector) {
        super();
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
        return super.canActivate(context);
    }
    handleRequest(err, user, info) {
        if (err)
            throw err instanceof app_exception_1.AppException ? err : app_exception_1.AppException.unauthorized();
        // The specification's client refreshes on exactly this answer (spec 001 §7.1).
        if (info?.name === 'TokenExpiredError')
            throw (0, token_service_1.jwtExpired)();
        if (!user)
            throw app_exception_1.AppException.unauthorized();
        return user;
    }
};
exports.JwtAuthGuard = JwtAuthGuard;
exports.JwtAuthGuard = JwtAuthGuard = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [core_1.Reflector])
], JwtAuthGuard);
//# sourceMappingURL=jwt-auth.guard.js.map