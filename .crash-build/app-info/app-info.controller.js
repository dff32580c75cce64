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
exports.AppInfoController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const app_config_module_1 = require("../config/app-config.module");
const access_decorators_1 = require("../common/decorators/access.decorators");
const messages_1 = require("../shared/messages");
const version_1 = require("../version");
/** Access: public. What the sign-in page needs before anyone signs in (is SSO on, which environment). */
let AppInfoController = class AppInfoController {
    config;
    constructor(config) {
        this.config = config;
    }
    info() {
        return { productName: messages_1.PRODUCT_NAME, version: version_1.version, appEnv: this.config.appEnv, ssoEnabled: !!this.config.oidc, supportEmail: this.config.supportEmail };
    }
};
exports.AppInfoController = AppInfoController;
__decorate([
    (0, access_decorators_1.Public)(),
    (0, common_1.Get)(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Object)
], AppInfoController.prototype, "info", null);
exports.AppInfoController = AppInfoController = __decorate([
    (0, swagger_1.ApiTags)('app'),
    (0, common_1.Controller)('api/app-info'),
    __param(0, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], AppInfoController);
//# sourceMappingURL=app-info.controller.js.map