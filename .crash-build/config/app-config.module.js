"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.AppConfigModule = exports.APP_CONFIG = void 0;
const common_1 = require("@nestjs/common");
const env_validation_1 = require("./env.validation");
/** Injection token of the validated {@link AppConfig}. */
exports.APP_CONFIG = Symbol('APP_CONFIG');
let AppConfigModule = class AppConfigModule {
};
exports.AppConfigModule = AppConfigModule;
exports.AppConfigModule = AppConfigModule = __decorate([
    (0, common_1.Global)(),
    (0, common_1.Module)({
        providers: [{ provide: exports.APP_CONFIG, useFactory: () => (0, env_validation_1.loadConfig)() }],
        exports: [exports.APP_CONFIG],
    })
], AppConfigModule);
//# sourceMappingURL=app-config.module.js.map