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
exports.SsoController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const jwt_1 = require("@nestjs/jwt");
const app_config_module_1 = require("../../config/app-config.module");
const app_exception_1 = require("../../common/app.exception");
const access_decorators_1 = require("../../common/decorators/access.decorators");
const refresh_cookie_1 = require("../refresh-cookie");
const sso_service_1 = require("./sso.service");
const TRANSACTION_COOKIE = 'ssoTransaction';
const TRANSACTION_SECONDS = 10 * 60;
/**
 * Access: public, as the start and the end of a sign-in. The round trip is bound to the browser that
 * started it by a signed HttpOnly cookie holding state, nonce and the PKCE verifier.
 */
let SsoController = class SsoController {
    sso;
    jwt;
    config;
    constructor(sso, jwt, config) {
        this.sso = sso;
        this.jwt = jwt;
        this.config = config;
    }
    get secure() {
        return this.config.publicUrl.startsWith('https:');
    }
    async start(res) {
        const { url, transaction } = await this.sso.start();
        // Lax, not Strict: the cookie must come back on the identity provider's top-level redirect.
        res.cookie(TRANSACTION_COOKIE, this.jwt.sign({ typ: 'sso', ...transaction }, { expiresIn: TRANSACTION_SECONDS }), {
            httpOnly: true,
            sameSite: 'lax',
            secure: this.secure,
            path: '/callback',
            maxAge: TRANSACTION_SECONDS * 1000,
        });
        res.redirect(302, url);
    }
    async callback(req, res) {
        const raw = req.cookies?.[TRANSACTION_COOKIE];
        res.clearCookie(TRANSACTION_COOKIE, { path: '/callback', sameSite: 'lax', secure: this.secure, httpOnly: true });
        let transaction;
        try {
            const payload = raw ? this.jwt.verify(raw) : undefined;
            if (payload?.typ === 'sso')
                transaction = { state: payload.state, nonce: payload.nonce, codeVerifier: payload.codeVerifier };
        }
        catch {
            transaction = undefined;
        }
        try {
            const { refreshToken } = await this.sso.finish(new URL(req.originalUrl, this.sso.redirectUri), transaction, { ip: req.ip, userAgent: req.headers['user-agent'] });
            (0, refresh_cookie_1.setRefreshCookie)(res, refreshToken, this.secure);
            // The client finds no access token, refreshes with the cookie just set, and is signed in (spec: callback → root).
            res.redirect(302, '/');
        }
        catch (e) {
            const message = e instanceof app_exception_1.AppException ? e.getResponse().message : 'The corporate login did not succeed. Please try again.';
            res.redirect(302, `/logIn?ssoError=${encodeURIComponent(message)}`);
        }
    }
};
exports.SsoController = SsoController;
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Get)('auth/sso'),
    __param(0, (0, common_1.Res)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], SsoController.prototype, "start", null);
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Get)('callback'),
    __param(0, (0, common_1.Req)()),
    __param(1, (0, common_1.Res)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], SsoController.prototype, "callback", null);
exports.SsoController = SsoController = __decorate([
    (0, swagger_1.ApiTags)('auth'),
    (0, common_1.Controller)(),
    __param(2, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [sso_service_1.SsoService,
        jwt_1.JwtService, Object])
], SsoController);
//# sourceMappingURL=sso.controller.js.map