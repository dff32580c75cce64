"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AppException = void 0;
const common_1 = require("@nestjs/common");
const messages_1 = require("../shared/messages");
/**
 * An error with the body of CONTRACT 3: {success: false, statusCode, code, message, ...extra}.
 * Services throw these; the global filter writes them out unchanged.
 */
class AppException extends common_1.HttpException {
    code;
    extra;
    constructor(status, code, message, extra = {}) {
        super({ success: false, statusCode: status, code, message, ...extra }, status);
        this.code = code;
        this.extra = extra;
    }
    static badRequest(message, code = messages_1.ERROR_CODES.VALIDATION_FAILED, extra) {
        return new AppException(common_1.HttpStatus.BAD_REQUEST, code, message, extra);
    }
    static unauthorized(message = 'Authentication required.', code = messages_1.ERROR_CODES.UNAUTHENTICATED, extra) {
        return new AppException(common_1.HttpStatus.UNAUTHORIZED, code, message, extra);
    }
    static forbidden(message = 'You do not have permission to do this.', code = messages_1.ERROR_CODES.FORBIDDEN) {
        return new AppException(common_1.HttpStatus.FORBIDDEN, code, message);
    }
    static notFound(message = 'Not found.') {
        return new AppException(common_1.HttpStatus.NOT_FOUND, messages_1.ERROR_CODES.NOT_FOUND, message);
    }
    static conflict(message, code = messages_1.ERROR_CODES.CONFLICT) {
        return new AppException(common_1.HttpStatus.CONFLICT, code, message);
    }
}
exports.AppException = AppException;
//# sourceMappingURL=app.exception.js.map