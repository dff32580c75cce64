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
exports.ForceLogoffDto = void 0;
const class_validator_1 = require("class-validator");
const organisation_admin_1 = require("../../shared/organisation-admin");
/** POST api/userLoginActivities/force-logoff (spec 001 §7). */
class ForceLogoffDto {
    userIds;
}
exports.ForceLogoffDto = ForceLogoffDto;
__decorate([
    (0, class_validator_1.IsArray)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.SELECT_USERS }),
    (0, class_validator_1.ArrayNotEmpty)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.SELECT_USERS }),
    (0, class_validator_1.ArrayMaxSize)(1000, { message: 'At most 1000 users at a time' }),
    (0, class_validator_1.IsInt)({ each: true, message: 'userIds must be user ids' }),
    __metadata("design:type", Array)
], ForceLogoffDto.prototype, "userIds", void 0);
//# sourceMappingURL=force-logoff.dto.js.map