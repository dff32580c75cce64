"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SsoService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const oidc = __importStar(require("openid-client"));
const typeorm_2 = require("typeorm");
const app_config_module_1 = require("../../config/app-config.module");
const app_exception_1 = require("../../common/app.exception");
const organisation_entity_1 = require("../../organisations/entities/organisation.entity");
const user_entity_1 = require("../../users/entities/user.entity");
const auth_service_1 = require("../auth.service");
/**
 * Corporate single sign-on (CONTRACT 3): OpenID Connect code flow with PKCE, scopes 'openid email',
 * against OIDC_ISSUER. An identity signs in only as an existing, enabled account that is marked for
 * SSO in an organisation with SSO enabled: the provider proves the e-mail, the product decides access.
 */
let SsoService = class SsoService {
    config;
    users;
    organisations;
    auth;
    logger = new common_1.Logger('SSO');
    configuration;
    constructor(config, users, organisations, auth) {
        this.config = config;
        this.users = users;
        this.organisations = organisations;
        this.auth = auth;
    }
    get enabled() {
        return !!this.config.oidc;
    }
    get redirectUri() {
        return `${this.config.publicUrl}/callback`;
    }
    /** Discovered once, on first use; a failed discovery is retried on the next sign-in. */
    client() {
        const settings = this.config.oidc;
        if (!settings)
            throw app_exception_1.AppException.notFound('Corporate login is not configured.');
        this.configuration ??= oidc
            .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, settings.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : undefined)
            .catch((e) => {
            this.configuration = undefined;
            this.logger.error(`Discovery of ${settings.issuer} failed: ${e.message}`);
            throw new app_exception_1.AppException(502, 'SSO_UNAVAILABLE', 'The corporate identity provider cannot be reached. Please try again later.');
        });
        return this.configuration;
    }
    async start() {
        const client = await this.client();
        const transaction = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
        const url = oidc.buildAuthorizationUrl(client, {
            redirect_uri: this.redirectUri,
            scope: 'openid email',
            response_type: 'code',
            state: transaction.state,
            nonce: transaction.nonce,
            code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
            code_challenge_method: 'S256',
        });
        return { url: url.href, transaction };
    }
    async finish(callbackUrl, transaction, client) {
        if (!transaction)
            throw app_exception_1.AppException.badRequest('The corporate login took too long or was started elsewhere. Please try again.', 'SSO_STATE_MISSING');
        let email;
        try {
            const client = await this.client();
            const tokens = await oidc.authorizationCodeGrant(client, callbackUrl, {
                pkceCodeVerifier: transaction.codeVerifier,
                expectedState: transaction.state,
                expectedNonce: transaction.nonce,
                idTokenExpected: true,
            });
            const idClaims = tokens.claims();
            if (!idClaims)
                throw new Error('no ID token');
            // Conforming providers put scope claims (email) in userinfo rather than in the ID token.
            const claims = typeof idClaims.email === 'string' ? idClaims : await oidc.fetchUserInfo(client, tokens.access_token, idClaims.sub);
            if (claims.email_verified === false)
                throw new Error('the e-mail address is not verified by the identity provider');
            email = typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined;
        }
        catch (e) {
            if (e instanceof app_exception_1.AppException)
                throw e;
            this.logger.warn(`Corporate login failed: ${e.message}`);
            throw app_exception_1.AppException.unauthorized('The corporate login did not succeed. Please try again.', 'SSO_FAILED');
        }
        const refused = () => app_exception_1.AppException.forbidden('Your account is not enabled for corporate login. Please contact your administrator.', 'SSO_NOT_ALLOWED');
        if (!email)
            throw refused();
        const user = await this.users.findOneBy({ email });
        if (!user || !user.isSSO)
            throw refused();
        const org = await this.organisations.findOneBy({ id: user.organisationId });
        if (!org?.isSSOEnabled)
            throw refused();
        this.auth.assertActive(user);
        return this.auth.signIn(user, client, 'sso');
    }
};
exports.SsoService = SsoService;
exports.SsoService = SsoService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __param(1, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __param(2, (0, typeorm_1.InjectRepository)(organisation_entity_1.Organisation)),
    __metadata("design:paramtypes", [Object, typeorm_2.Repository,
        typeorm_2.Repository,
        auth_service_1.AuthService])
], SsoService);
//# sourceMappingURL=sso.service.js.map