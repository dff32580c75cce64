"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.configureApp = configureApp;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const cookie_parser_1 = __importDefault(require("cookie-parser"));
const helmet_1 = __importDefault(require("helmet"));
const app_exception_1 = require("./common/app.exception");
const all_exceptions_filter_1 = require("./common/filters/all-exceptions.filter");
const app_config_module_1 = require("./config/app-config.module");
const messages_1 = require("./shared/messages");
const version_1 = require("./version");
function flatten(errors, parent = '') {
    return errors.flatMap((e) => {
        const field = parent ? `${parent}.${e.property}` : e.property;
        const own = Object.values(e.constraints ?? {}).map((message) => ({
            field,
            message: message.includes('should not exist') ? `Unknown field "${field}".` : message,
        }));
        return [...own, ...flatten(e.children ?? [], field)];
    });
}
/** Everything main.ts and the e2e tests share: security headers, parsing, validation, errors, docs. */
function configureApp(app) {
    const config = app.get(app_config_module_1.APP_CONFIG);
    const express = app;
    if (config.trustProxy)
        express.set('trust proxy', true);
    express.disable('x-powered-by');
    app.use((0, helmet_1.default)({
        contentSecurityPolicy: {
            directives: {
                defaultSrc: ["'self'"],
                imgSrc: ["'self'", 'data:', 'blob:'],
                styleSrc: ["'self'", "'unsafe-inline'"],
                connectSrc: ["'self'", 'ws:', 'wss:'],
                upgradeInsecureRequests: null,
            },
        },
    }));
    app.use((0, cookie_parser_1.default)());
    app.useGlobalPipes(new common_1.ValidationPipe({
        whitelist: true,
        forbidNonWhitelisted: true,
        transform: true,
        exceptionFactory: (errors) => {
            const details = flatten(errors);
            return app_exception_1.AppException.badRequest(details.map((d) => d.message).join('; '), messages_1.ERROR_CODES.VALIDATION_FAILED, { errors: details });
        },
    }));
    app.useGlobalFilters(new all_exceptions_filter_1.AllExceptionsFilter());
    app.enableShutdownHooks();
    const document = swagger_1.SwaggerModule.createDocument(app, new swagger_1.DocumentBuilder()
        .setTitle('Tax Portal API')
        .setDescription('Sign-in, user administration and the application shell. Errors: {success: false, statusCode, code, message}.')
        .setVersion(version_1.version)
        .addBearerAuth()
        .addApiKey({ type: 'apiKey', name: 'X-Api-Key', in: 'header' }, 'service')
        .build());
    swagger_1.SwaggerModule.setup('api/docs', app, document);
}
//# sourceMappingURL=configure-app.js.map