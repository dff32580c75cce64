"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.AppModule = exports.CLIENT_DIST = exports.SERVER_PATHS = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const serve_static_1 = require("@nestjs/serve-static");
const throttler_1 = require("@nestjs/throttler");
const node_path_1 = require("node:path");
const auth_module_1 = require("./auth/auth.module");
const billing_module_1 = require("./billing/billing.module");
const logo_module_1 = require("./logo/logo.module");
const token_module_1 = require("./auth/token.module");
const jwt_auth_guard_1 = require("./common/guards/jwt-auth.guard");
const roles_guard_1 = require("./common/guards/roles.guard");
const service_api_key_guard_1 = require("./common/guards/service-api-key.guard");
const request_logger_middleware_1 = require("./common/middleware/request-logger.middleware");
const app_config_module_1 = require("./config/app-config.module");
const database_module_1 = require("./database/database.module");
const app_info_controller_1 = require("./app-info/app-info.controller");
const health_controller_1 = require("./health/health.controller");
const mail_module_1 = require("./mail/mail.module");
const mfa_module_1 = require("./mfa/mfa.module");
const organisations_module_1 = require("./organisations/organisations.module");
const sessions_module_1 = require("./sessions/sessions.module");
const users_module_1 = require("./users/users.module");
const user_groups_module_1 = require("./user-groups/user-groups.module");
const notifications_module_1 = require("./notifications/notifications.module");
const announcements_module_1 = require("./announcements/announcements.module");
const feedback_module_1 = require("./feedback/feedback.module");
const contact_module_1 = require("./contact/contact.module");
const system_info_module_1 = require("./system-info/system-info.module");
/** Paths the server answers itself; everything else falls back to the client's index.html. */
exports.SERVER_PATHS = ['/api/{*any}', '/auth/{*any}', '/mfa/{*any}', '/refresh', '/callback', '/socket.io/{*any}', '/files/{*any}'];
exports.CLIENT_DIST = (0, node_path_1.join)(__dirname, '..', 'client', 'dist');
let AppModule = class AppModule {
    configure(consumer) {
        consumer.apply(request_logger_middleware_1.RequestLoggerMiddleware).forRoutes('*');
    }
};
exports.AppModule = AppModule;
exports.AppModule = AppModule = __decorate([
    (0, common_1.Module)({
        imports: [
            app_config_module_1.AppConfigModule,
            database_module_1.DatabaseModule,
            mail_module_1.MailModule,
            token_module_1.TokenModule,
            sessions_module_1.SessionsModule,
            throttler_1.ThrottlerModule.forRoot({ throttlers: [{ name: 'default', ttl: 60_000, limit: 1000 }] }),
            serve_static_1.ServeStaticModule.forRoot({ rootPath: exports.CLIENT_DIST, exclude: exports.SERVER_PATHS, serveStaticOptions: { index: false, maxAge: '1h' } }),
            auth_module_1.AuthModule,
            mfa_module_1.MfaModule,
            users_module_1.UsersModule,
            user_groups_module_1.UserGroupsModule,
            organisations_module_1.OrganisationsModule,
            billing_module_1.BillingModule,
            logo_module_1.LogoModule,
            notifications_module_1.NotificationsModule,
            announcements_module_1.AnnouncementsModule,
            feedback_module_1.FeedbackModule,
            contact_module_1.ContactModule,
            system_info_module_1.SystemInfoModule,
        ],
        controllers: [health_controller_1.HealthController, app_info_controller_1.AppInfoController],
        providers: [
            { provide: core_1.APP_GUARD, useClass: throttler_1.ThrottlerGuard },
            { provide: core_1.APP_GUARD, useClass: service_api_key_guard_1.ServiceApiKeyGuard },
            { provide: core_1.APP_GUARD, useClass: jwt_auth_guard_1.JwtAuthGuard },
            { provide: core_1.APP_GUARD, useClass: roles_guard_1.RolesGuard },
        ],
    })
], AppModule);
//# sourceMappingURL=app.module.js.map