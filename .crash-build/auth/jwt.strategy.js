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
exports.JwtStrategy = void 0;
exports.toAuthUser = toAuthUser;
const common_1 = require("@nestjs/common");
const passport_1 = require("@nestjs/passport");
const typeorm_1 = require("@nestjs/typeorm");
const passport_jwt_1 = require("passport-jwt");
const typeorm_2 = require("typeorm");
const app_config_module_1 = require("../config/app-config.module");
const app_exception_1 = require("../common/app.exception");
const sessions_service_1 = require("../sessions/sessions.service");
const user_entity_1 = require("../users/entities/user.entity");
/** Access tokens count only while their session is open and the account is enabled. */
let JwtStrategy = class JwtStrategy extends (0, passport_1.PassportStrategy)(passport_jwt_1.Strategy, 'jwt') {
    users;
    sessions;
    constructor(config, users, sessions) {
        super({ jwtFromRequest: passport_jwt_1.ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: config.jwtSecret, ignoreExpiration: false });
        this.users = users;
        this.sessions = sessions;
    }
    async validate(payload) {
        const ended = () => app_exception_1.AppException.unauthorized('Your session has ended. Please log in again.', 'SESSION_ENDED');
        if (payload.typ !== 'access')
            throw app_exception_1.AppException.unauthorized();
        const [active, user] = await Promise.all([this.sessions.isActive(payload.sid), this.users.findOneBy({ id: payload.sub })]);
        if (!active || !user || user.isDisabled || user.isBlocked)
            throw ended();
        return toAuthUser(user, payload.sid);
    }
};
exports.JwtStrategy = JwtStrategy;
exports.JwtStrategy = JwtStrategy = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __param(1, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __metadata("design:paramtypes", [Object, typeorm_2.Repository,
        sessions_service_1.SessionsService])
], JwtStrategy);
function toAuthUser(user, sessionId) {
    return {
        id: user.id,
        email: user.email,
        organisationId: user.organisationId,
        sessionId,
        roles: user.roles,
        isMFAEnforced: user.isMFAEnforced,
        isMFAEnabled: user.isMFAEnabled,
    };
}
//# sourceMappingURL=jwt.strategy.js.map