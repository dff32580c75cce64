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
exports.SystemInfoService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const version_1 = require("../version");
const system_information_entity_1 = require("./entities/system-information.entity");
/** Records events of the product's systems and lists them for the About page (spec 001 §2.15, §4). */
let SystemInfoService = class SystemInfoService {
    entries;
    logger = new common_1.Logger('SystemInfo');
    constructor(entries) {
        this.entries = entries;
    }
    /** The application records its own deployment, with its version, each time it starts. */
    async onApplicationBootstrap() {
        try {
            await this.record({ eventType: 'application-deployment', status: 'completed', version: version_1.version, message: `Application started (version ${version_1.version}).` });
        }
        catch (e) {
            this.logger.error(`Could not record the application deployment: ${e.message}`);
        }
    }
    /** Latest first unless asc is true; only the given event type when one is named. */
    async list(query) {
        const order = query.asc === true ? 'ASC' : 'DESC';
        const rows = await this.entries.find({
            where: query.eventType ? { eventType: query.eventType } : {},
            order: { startDateTime: order, id: order },
            take: 500,
        });
        return rows.map(toEntry);
    }
    async record(dto) {
        const saved = await this.entries.save(this.entries.create({
            eventType: dto.eventType,
            status: dto.status,
            version: dto.version ?? '',
            message: dto.message ?? '',
            startDateTime: dto.startDateTime ? new Date(dto.startDateTime) : new Date(),
        }));
        return toEntry(saved);
    }
};
exports.SystemInfoService = SystemInfoService;
exports.SystemInfoService = SystemInfoService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(system_information_entity_1.SystemInformation)),
    __metadata("design:paramtypes", [typeorm_2.Repository])
], SystemInfoService);
function toEntry(e) {
    return {
        id: e.id,
        eventType: e.eventType,
        status: e.status,
        version: e.version,
        message: e.message,
        startDateTime: new Date(e.startDateTime).toISOString(),
        modified: new Date(e.modified).toISOString(),
    };
}
//# sourceMappingURL=system-info.service.js.map