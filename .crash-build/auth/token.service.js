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
exports.TokenService = void 0;
exports.jwtExpired = jwtExpired;
exports.bearer = bearer;
const common_1 = require("@nestjs/common");
const jwt_1 = require("@nestjs/jwt");
const app_config_module_1 = require("../config/app-config.module");
const app_exception_1 = require("../common/app.exception");
const limits_1 = require("../shared/limits");
const messages_1 = require("../shared/messages");
/** The one expired-token answer of the specification: 403 {success: false, message: 'jwt expired'}. */
function jwtExpired() {
    return app_exception_1.AppException.forbidden(messages_1.AUTH_MESSAGES.JWT_EXPIRED, messages_1.ERROR_CODES.JWT_EXPIRED);
}
/** Signs and checks access tokens (15 minutes, carry the session id) and the short challenge tokens of login steps. */
let TokenService = class TokenService {
    jwt;
    config;
    constructor(jwt, config) {
        this.jwt = jwt;
        this.config = config;
    }
    signAccess(userId, sessionId) {
        const payload = { sub: userId, sid: sessionId, typ: 'access' };
        return this.jwt.sign(payload, { expiresIn: limits_1.LIFETIMES.ACCESS_TOKEN_SECONDS });
    }
    signChallenge(userId, purpose) {
        const payload = { sub: userId, typ: 'challenge', pur: purpose };
        return this.jwt.sign(payload, { expiresIn: limits_1.LIFETIMES.CHALLENGE_TOKEN_SECONDS });
    }
    /** The user id a challenge token (from `Authorization: Bearer …`) was issued to, for the given step. */
    verifyChallenge(authorization, purpose) {
        const token = bearer(authorization);
        if (!token)
            throw app_exception_1.AppException.unauthorized('This step needs the challenge token of the previous sign-in step.');
        let payload;
        try {
            payload = this.jwt.verify(token);
        }
        catch (e) {
            if (e.name === 'TokenExpiredError')
                throw jwtExpired();
            throw app_exception_1.AppException.unauthorized('The sign-in challenge is not valid. Please log in again.');
        }
        if (payload.typ !== 'challenge' || payload.pur !== purpose) {
            throw app_exception_1.AppException.unauthorized('The sign-in challenge is not valid for this step. Please log in again.');
        }
        return payload.sub;
    }
    /** Decodes an access token without throwing: for GET /auth/status and logout. */
    peekAccess(authorization) {
        const token = bearer(authorization);
        if (!token)
            return null;
        try {
            const payload = this.jwt.verify(token);
            return payload.typ === 'access' ? payload : null;
        }
        catch {
            return null;
        }
    }
    get cookieSecure() {
        return this.config.publicUrl.startsWith('https:');
    }
};
exports.TokenService = TokenService;
exports.TokenService = TokenService = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [jwt_1.JwtService, Object])
], TokenService);
function bearer(authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    return match?.[1];
}
//# sourceMappingURL=token.service.js.map