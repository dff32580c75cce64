"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.AuthModule = void 0;
const common_1 = require("@nestjs/common");
const passport_1 = require("@nestjs/passport");
const typeorm_1 = require("@nestjs/typeorm");
const mfa_module_1 = require("../mfa/mfa.module");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const user_entity_1 = require("../users/entities/user.entity");
const users_module_1 = require("../users/users.module");
const auth_controller_1 = require("./auth.controller");
const auth_service_1 = require("./auth.service");
const password_reset_token_entity_1 = require("./entities/password-reset-token.entity");
const jwt_strategy_1 = require("./jwt.strategy");
const login_throttle_service_1 = require("./login-throttle.service");
const sso_controller_1 = require("./sso/sso.controller");
const sso_service_1 = require("./sso/sso.service");
let AuthModule = class AuthModule {
};
exports.AuthModule = AuthModule;
exports.AuthModule = AuthModule = __decorate([
    (0, common_1.Module)({
        imports: [passport_1.PassportModule, typeorm_1.TypeOrmModule.forFeature([user_entity_1.User, password_reset_token_entity_1.PasswordResetToken, organisation_entity_1.Organisation]), users_module_1.UsersModule, mfa_module_1.MfaModule],
        controllers: [auth_controller_1.AuthController, sso_controller_1.SsoController],
        providers: [auth_service_1.AuthService, login_throttle_service_1.LoginThrottleService, jwt_strategy_1.JwtStrategy, sso_service_1.SsoService],
        exports: [auth_service_1.AuthService],
    })
], AuthModule);
//# sourceMappingURL=auth.module.js.map