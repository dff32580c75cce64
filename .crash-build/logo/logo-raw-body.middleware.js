"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.LogoRawBodyMiddleware = void 0;
const common_1 = require("@nestjs/common");
const express_1 = require("express");
const app_exception_1 = require("../common/app.exception");
const limits_1 = require("../shared/limits");
const organisation_admin_1 = require("../shared/organisation-admin");
const parse = (0, express_1.raw)({ type: () => true, limit: limits_1.LIMITS.LOGO_MAX_BYTES });
/** The logo upload is the raw file (any content type), read into a Buffer of at most 10 MB. */
let LogoRawBodyMiddleware = class LogoRawBodyMiddleware {
    use(req, res, next) {
        parse(req, res, (err) => {
            const e = err;
            if (e?.type === 'entity.too.large')
                return next(new app_exception_1.AppException(common_1.HttpStatus.PAYLOAD_TOO_LARGE, 'PAYLOAD_TOO_LARGE', organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_TOO_LARGE));
            next(err);
        });
    }
};
exports.LogoRawBodyMiddleware = LogoRawBodyMiddleware;
exports.LogoRawBodyMiddleware = LogoRawBodyMiddleware = __decorate([
    (0, common_1.Injectable)()
], LogoRawBodyMiddleware);
//# sourceMappingURL=logo-raw-body.middleware.js.map