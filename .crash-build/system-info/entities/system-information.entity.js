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
Object.defineProperty(exports, "__esModule", { value: true });
exports.SystemInformation = void 0;
const typeorm_1 = require("typeorm");
const column_types_1 = require("../../database/column-types");
/** An event recorded by a back-end system or by this application (spec 001 §3 'System information entry'). */
let SystemInformation = class SystemInformation {
    id;
    eventType;
    status;
    version;
    message;
    startDateTime;
    modified;
};
exports.SystemInformation = SystemInformation;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)(),
    __metadata("design:type", Number)
], SystemInformation.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 50 }),
    __metadata("design:type", String)
], SystemInformation.prototype, "eventType", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 20 }),
    __metadata("design:type", String)
], SystemInformation.prototype, "status", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 100, default: '' }),
    __metadata("design:type", String)
], SystemInformation.prototype, "version", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 2000, default: '' }),
    __metadata("design:type", String)
], SystemInformation.prototype, "message", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE }),
    __metadata("design:type", Date)
], SystemInformation.prototype, "startDateTime", void 0);
__decorate([
    (0, typeorm_1.UpdateDateColumn)(),
    __metadata("design:type", Date)
], SystemInformation.prototype, "modified", void 0);
exports.SystemInformation = SystemInformation = __decorate([
    (0, typeorm_1.Entity)('system_information'),
    (0, typeorm_1.Index)('IDX_system_information_type_start', ['eventType', 'startDateTime'])
], SystemInformation);
//# sourceMappingURL=system-information.entity.js.map