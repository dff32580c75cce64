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
exports.RequestLoggerMiddleware = void 0;
const common_1 = require("@nestjs/common");
const app_config_module_1 = require("../../config/app-config.module");
/** One JSON line per request: time, method, path (query dropped: it may carry tokens), status, duration, user. */
let RequestLoggerMiddleware = class RequestLoggerMiddleware {
    config;
    constructor(config) {
        this.config = config;
    }
    use(req, res, next) {
        if (this.config.logLevel === 'silent' || this.config.logLevel === 'error')
            return next();
        const start = process.hrtime.bigint();
        res.on('finish', () => {
            const user = req.user;
            process.stdout.write(JSON.stringify({
                time: new Date().toISOString(),
                level: res.statusCode >= 500 ? 'error' : 'info',
                msg: 'request',
                method: req.method,
                path: req.originalUrl.split('?')[0],
                status: res.statusCode,
                ms: Number((process.hrtime.bigint() - start) / 1000n) / 1000,
                userId: user?.id,
                ip: req.ip,
            }) + '\n');
        });
        next();
    }
};
exports.RequestLoggerMiddleware = RequestLoggerMiddleware;
exports.RequestLoggerMiddleware = RequestLoggerMiddleware = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], RequestLoggerMiddleware);
//# sourceMappingURL=request-logger.middleware.js.map