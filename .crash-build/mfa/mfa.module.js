"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MfaModule = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const user_entity_1 = require("../users/entities/user.entity");
const users_module_1 = require("../users/users.module");
const mfa_admin_controller_1 = require("./mfa-admin.controller");
const mfa_admin_service_1 = require("./mfa-admin.service");
const mfa_controller_1 = require("./mfa.controller");
const mfa_service_1 = require("./mfa.service");
let MfaModule = class MfaModule {
};
exports.MfaModule = MfaModule;
exports.MfaModule = MfaModule = __decorate([
    (0, common_1.Module)({
        imports: [typeorm_1.TypeOrmModule.forFeature([user_entity_1.User]), users_module_1.UsersModule],
        controllers: [mfa_controller_1.MfaController, mfa_admin_controller_1.MfaAdminController],
        providers: [mfa_service_1.MfaService, mfa_admin_service_1.MfaAdminService],
        exports: [mfa_service_1.MfaService],
    })
], MfaModule);
//# sourceMappingURL=mfa.module.js.map