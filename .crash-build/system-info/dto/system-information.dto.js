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
exports.RecordSystemEventDto = exports.ListSystemInformationDto = void 0;
const class_transformer_1 = require("class-transformer");
const transforms_1 = require("../../common/transforms");
const class_validator_1 = require("class-validator");
const shell_1 = require("../../shared/shell");
const EVENT_TYPE_MESSAGE = `eventType must be one of ${shell_1.SYSTEM_EVENT_TYPES.join(', ')}.`;
/** POST /api/system-information/all (spec 001 §7): eventType and asc (the client sends asc=false). */
class ListSystemInformationDto {
    eventType;
    asc;
}
exports.ListSystemInformationDto = ListSystemInformationDto;
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(shell_1.SYSTEM_EVENT_TYPES, { message: EVENT_TYPE_MESSAGE }),
    __metadata("design:type", String)
], ListSystemInformationDto.prototype, "eventType", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsBoolean)({ message: 'asc must be true or false.' }),
    __metadata("design:type", Boolean)
], ListSystemInformationDto.prototype, "asc", void 0);
/** POST /api/system-information with X-Api-Key (CONTRACT 3): an event recorded by another system. */
class RecordSystemEventDto {
    eventType;
    status;
    version;
    message;
    /** ISO 8601; defaults to now. */
    startDateTime;
}
exports.RecordSystemEventDto = RecordSystemEventDto;
__decorate([
    (0, class_validator_1.IsIn)(shell_1.SYSTEM_EVENT_TYPES, { message: EVENT_TYPE_MESSAGE }),
    __metadata("design:type", String)
], RecordSystemEventDto.prototype, "eventType", void 0);
__decorate([
    (0, class_validator_1.IsIn)(shell_1.SYSTEM_STATUSES, { message: `status must be one of ${shell_1.SYSTEM_STATUSES.join(', ')}.` }),
    __metadata("design:type", String)
], RecordSystemEventDto.prototype, "status", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(100),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    __metadata("design:type", String)
], RecordSystemEventDto.prototype, "version", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(2000),
    __metadata("design:type", String)
], RecordSystemEventDto.prototype, "message", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsDateString)({ strict: true }, { message: 'startDateTime must be an ISO 8601 date-time.' }),
    __metadata("design:type", String)
], RecordSystemEventDto.prototype, "startDateTime", void 0);
//# sourceMappingURL=system-information.dto.js.map