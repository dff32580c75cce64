"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.AllExceptionsFilter = void 0;
const common_1 = require("@nestjs/common");
const sqlite_serialiser_1 = require("../../database/sqlite-serialiser");
const messages_1 = require("../../shared/messages");
const CODE_BY_STATUS = {
    400: messages_1.ERROR_CODES.VALIDATION_FAILED,
    401: messages_1.ERROR_CODES.UNAUTHENTICATED,
    403: messages_1.ERROR_CODES.FORBIDDEN,
    404: messages_1.ERROR_CODES.NOT_FOUND,
    409: messages_1.ERROR_CODES.CONFLICT,
    413: 'PAYLOAD_TOO_LARGE',
    429: messages_1.ERROR_CODES.TOO_MANY_ATTEMPTS,
};
/** Writes every error as CONTRACT 3's body: {success: false, statusCode, code, message}. */
let AllExceptionsFilter = class AllExceptionsFilter {
    logger = new common_1.Logger('Exceptions');
    catch(exception, host) {
        if (host.getType() !== 'http')
            return;
        const res = host.switchToHttp().getResponse();
        if (res.headersSent)
            return;
        if (exception instanceof common_1.HttpException) {
            const status = exception.getStatus();
            const raw = exception.getResponse();
            const body = typeof raw === 'object' && raw !== null ? raw : { message: raw };
            const message = status === 400 && exception.cause instanceof SyntaxError
                ? 'The request body is not valid JSON.'
                : Array.isArray(body.message)
                    ? body.message.join('; ')
                    : String(body.message ?? exception.message);
            res.status(status).json({
                ...body,
                success: false,
                statusCode: status,
                code: typeof body.code === 'string' ? body.code : (CODE_BY_STATUS[status] ?? `HTTP_${status}`),
                message,
                error: undefined,
            });
            return;
        }
        // Body-parser errors (malformed JSON, too large) carry a status but are not HttpExceptions.
        const maybe = exception;
        if (typeof maybe?.status === 'number' && maybe.status >= 400 && maybe.status < 500) {
            const message = maybe.type === 'entity.parse.failed' ? 'The request body is not valid JSON.' : (maybe.message ?? 'Bad request.');
            res.status(maybe.status).json({ success: false, statusCode: maybe.status, code: CODE_BY_STATUS[maybe.status] ?? `HTTP_${maybe.status}`, message });
            return;
        }
        if (exception instanceof sqlite_serialiser_1.DatabaseBusyError) {
            res.setHeader('Retry-After', '1');
            res.status(common_1.HttpStatus.SERVICE_UNAVAILABLE).json({ success: false, statusCode: 503, code: 'DATABASE_BUSY', message: exception.message });
            return;
        }
        this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
        res.status(common_1.HttpStatus.INTERNAL_SERVER_ERROR).json({
            success: false,
            statusCode: 500,
            code: messages_1.ERROR_CODES.INTERNAL,
            message: 'Sorry, an error occurred on the server. It has been logged.',
        });
    }
};
exports.AllExceptionsFilter = AllExceptionsFilter;
exports.AllExceptionsFilter = AllExceptionsFilter = __decorate([
    (0, common_1.Catch)()
], AllExceptionsFilter);
//# sourceMappingURL=all-exceptions.filter.js.map