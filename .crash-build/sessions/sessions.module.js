"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionsModule = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const refresh_token_entity_1 = require("../auth/entities/refresh-token.entity");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const users_module_1 = require("../users/users.module");
const sessions_controller_1 = require("./sessions.controller");
const session_entity_1 = require("./entities/session.entity");
const session_events_1 = require("./session-events");
const sessions_service_1 = require("./sessions.service");
let SessionsModule = class SessionsModule {
};
exports.SessionsModule = SessionsModule;
exports.SessionsModule = SessionsModule = __decorate([
    (0, common_1.Global)(),
    (0, common_1.Module)({
        imports: [typeorm_1.TypeOrmModule.forFeature([session_entity_1.Session, refresh_token_entity_1.RefreshToken, organisation_entity_1.Organisation]), users_module_1.UsersModule],
        controllers: [sessions_controller_1.SessionsController],
        providers: [sessions_service_1.SessionsService, session_events_1.SessionEvents],
        exports: [sessions_service_1.SessionsService, session_events_1.SessionEvents],
    })
], SessionsModule);
//# sourceMappingURL=sessions.module.js.map