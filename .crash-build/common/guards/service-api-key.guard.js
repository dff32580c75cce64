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
exports.ServiceApiKeyGuard = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const node_crypto_1 = require("node:crypto");
const app_config_module_1 = require("../../config/app-config.module");
const app_exception_1 = require("../app.exception");
const access_decorators_1 = require("../decorators/access.decorators");
/** Checks X-Api-Key on @ServiceApi() routes against SERVICE_API_KEY; refuses all when none is configured. */
let ServiceApiKeyGuard = class ServiceApiKeyGuard {
    reflector;
    config;
    constructor(reflector, config) {
        this.reflector = reflector;
        this.config = config;
    }
    canActivate(context) {
        if (context.getType() !== 'http')
            return true;
        if (!this.reflector.getAllAndOverride(access_decorators_1.IS_SERVICE_API_KEY, [context.getHandler(), context.getClass()]))
            return true;
        const expected = this.config.serviceApiKey;
        if (!expected)
            throw app_exception_1.AppException.forbidden('The service API is switched off: SERVICE_API_KEY is not configured.');
        const given = context.switchToHttp().getRequest().headers['x-api-key'];
        if (typeof given !== 'string' || !safeEqual(given, expected))
            throw app_exception_1.AppException.unauthorized('A valid X-Api-Key header is required.');
        return true;
    }
};
exports.ServiceApiKeyGuard = ServiceApiKeyGuard;
exports.ServiceApiKeyGuard = ServiceApiKeyGuard = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [core_1.Reflector, Object])
], ServiceApiKeyGuard);
function safeEqual(a, b) {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && (0, node_crypto_1.timingSafeEqual)(x, y);
}
//# sourceMappingURL=service-api-key.guard.js.map