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
exports.AuthController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const throttler_1 = require("@nestjs/throttler");
const access_decorators_1 = require("../common/decorators/access.decorators");
const users_service_1 = require("../users/users.service");
const auth_service_1 = require("./auth.service");
const login_dto_1 = require("./dto/login.dto");
const password_dto_1 = require("./dto/password.dto");
const refresh_cookie_1 = require("./refresh-cookie");
const token_service_1 = require("./token.service");
/**
 * Access: every route here is public by nature (signing in, refreshing, recovering a password);
 * the steps after the first are bound to their challenge token, logout to the caller's own token.
 */
let AuthController = class AuthController {
    auth;
    tokens;
    users;
    constructor(auth, tokens, users) {
        this.auth = auth;
        this.tokens = tokens;
        this.users = users;
    }
    async login(dto, authorization, req, res) {
        const { accessToken, refreshToken } = await this.auth.login(dto, authorization, { ip: req.ip ?? 'unknown', userAgent: req.headers['user-agent'] });
        (0, refresh_cookie_1.setRefreshCookie)(res, refreshToken, this.tokens.cookieSecure);
        return { success: true, accessToken };
    }
    changePassword(dto, authorization, req) {
        return this.auth.changeForcedPassword(authorization, dto, req.ip ?? 'unknown');
    }
    forgotPassword(dto) {
        return this.auth.forgotPassword(dto);
    }
    resetPassword(dto) {
        return this.auth.resetPassword(dto);
    }
    async status(authorization) {
        const payload = this.tokens.peekAccess(authorization);
        const user = payload ? await this.users.currentForSession(payload.sub, payload.sid) : null;
        return user ? { authenticated: true, user } : { authenticated: false };
    }
    async logout(authorization, res) {
        await this.auth.logout(authorization);
        (0, refresh_cookie_1.clearRefreshCookie)(res, this.tokens.cookieSecure);
        return { success: true };
    }
    async refresh(req, res) {
        const cookies = req.cookies ?? {};
        try {
            const { accessToken, refreshToken } = await this.auth.refresh(cookies[refresh_cookie_1.REFRESH_COOKIE]);
            if (refreshToken)
                (0, refresh_cookie_1.setRefreshCookie)(res, refreshToken, this.tokens.cookieSecure);
            return { success: true, newAccessToken: accessToken };
        }
        catch (e) {
            (0, refresh_cookie_1.clearRefreshCookie)(res, this.tokens.cookieSecure);
            throw e;
        }
    }
};
exports.AuthController = AuthController;
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Post)('auth/login'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    __param(0, (0, common_1.Body)()),
    __param(1, (0, common_1.Headers)('authorization')),
    __param(2, (0, common_1.Req)()),
    __param(3, (0, common_1.Res)({ passthrough: true })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [login_dto_1.LoginDto, Object, Object, Object]),
    __metadata("design:returntype", Promise)
], AuthController.prototype, "login", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Post)('auth/change-password'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    __param(0, (0, common_1.Body)()),
    __param(1, (0, common_1.Headers)('authorization')),
    __param(2, (0, common_1.Req)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [password_dto_1.ChangePasswordDto, Object, Object]),
    __metadata("design:returntype", void 0)
], AuthController.prototype, "changePassword", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, throttler_1.Throttle)({ default: { limit: 10, ttl: 60_000 } }),
    (0, common_1.Post)('auth/forgot-password'),
    (0, common_1.HttpCode)(200),
    __param(0, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [password_dto_1.ForgotPasswordDto]),
    __metadata("design:returntype", void 0)
], AuthController.prototype, "forgotPassword", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, throttler_1.Throttle)({ default: { limit: 10, ttl: 60_000 } }),
    (0, common_1.Post)('auth/reset-password'),
    (0, common_1.HttpCode)(200),
    __param(0, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [password_dto_1.ResetPasswordDto]),
    __metadata("design:returntype", void 0)
], AuthController.prototype, "resetPassword", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Get)('auth/status'),
    (0, swagger_1.ApiBearerAuth)(),
    __param(0, (0, common_1.Headers)('authorization')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], AuthController.prototype, "status", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Post)('auth/logout'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    __param(0, (0, common_1.Headers)('authorization')),
    __param(1, (0, common_1.Res)({ passthrough: true })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], AuthController.prototype, "logout", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Post)('refresh'),
    (0, common_1.HttpCode)(200),
    __param(0, (0, common_1.Req)()),
    __param(1, (0, common_1.Res)({ passthrough: true })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], AuthController.prototype, "refresh", null);
exports.AuthController = AuthController = __decorate([
    (0, swagger_1.ApiTags)('auth'),
    (0, common_1.Controller)(),
    __metadata("design:paramtypes", [auth_service_1.AuthService,
        token_service_1.TokenService,
        users_service_1.UsersService])
], AuthController);
//# sourceMappingURL=auth.controller.js.map