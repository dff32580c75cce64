"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.LogoModule = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const logo_upload_entity_1 = require("./entities/logo-upload.entity");
const logo_raw_body_middleware_1 = require("./logo-raw-body.middleware");
const logo_controller_1 = require("./logo.controller");
const logo_service_1 = require("./logo.service");
let LogoModule = class LogoModule {
    configure(consumer) {
        consumer.apply(logo_raw_body_middleware_1.LogoRawBodyMiddleware).forRoutes({ path: 'api/logo/upload/:token', method: common_1.RequestMethod.PUT });
    }
};
exports.LogoModule = LogoModule;
exports.LogoModule = LogoModule = __decorate([
    (0, common_1.Module)({
        imports: [typeorm_1.TypeOrmModule.forFeature([logo_upload_entity_1.LogoUpload, organisation_entity_1.Organisation])],
        controllers: [logo_controller_1.LogoController],
        providers: [logo_service_1.LogoService],
    })
], LogoModule);
//# sourceMappingURL=logo.module.js.map