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
exports.SystemInfoController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const roles_1 = require("../shared/roles");
const system_information_dto_1 = require("./dto/system-information.dto");
const system_info_service_1 = require("./system-info.service");
/**
 * Access: every signed-in role lists the system information (it is the same for every organisation);
 * only other back-end systems, with X-Api-Key = SERVICE_API_KEY, record events.
 */
let SystemInfoController = class SystemInfoController {
    systemInfo;
    constructor(systemInfo) {
        this.systemInfo = systemInfo;
    }
    list(query) {
        return this.systemInfo.list(query);
    }
    record(dto) {
        return this.systemInfo.record(dto);
    }
};
exports.SystemInfoController = SystemInfoController;
__decorate([
    (0, common_1.Post)('all'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)(),
    (0, access_decorators_1.Roles)(roles_1.ALL_ROLES),
    __param(0, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [system_information_dto_1.ListSystemInformationDto]),
    __metadata("design:returntype", void 0)
], SystemInfoController.prototype, "list", null);
__decorate([
    (0, common_1.Post)(),
    (0, access_decorators_1.ServiceApi)(),
    (0, swagger_1.ApiSecurity)('service'),
    __param(0, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [system_information_dto_1.RecordSystemEventDto]),
    __metadata("design:returntype", void 0)
], SystemInfoController.prototype, "record", null);
exports.SystemInfoController = SystemInfoController = __decorate([
    (0, swagger_1.ApiTags)('system-information'),
    (0, common_1.Controller)('api/system-information'),
    __metadata("design:paramtypes", [system_info_service_1.SystemInfoService])
], SystemInfoController);
//# sourceMappingURL=system-info.controller.js.map