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
exports.CreateESupportDto = void 0;
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const organisation_admin_1 = require("../../shared/organisation-admin");
/** POST /api/users/add-esupport (spec 001 §5): the local part of the e-mail; the domain is fixed. */
class CreateESupportDto {
    userName = '';
}
exports.CreateESupportDto = CreateESupportDto;
__decorate([
    (0, class_transformer_1.Transform)(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value === undefined || value === null ? '' : value)),
    (0, class_validator_1.IsString)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.ESUPPORT_EMAIL_REQUIRED }),
    (0, class_validator_1.IsNotEmpty)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.ESUPPORT_EMAIL_REQUIRED }),
    (0, class_validator_1.Matches)(/^[^@|]*$/, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.ESUPPORT_FORBIDDEN_CHARS }),
    (0, class_validator_1.NotContains)(' ', { message: organisation_admin_1.ORG_ADMIN_MESSAGES.INVALID_EMAIL }),
    (0, class_validator_1.MaxLength)(64, { message: 'Email must be at most 64 characters before the domain' }),
    __metadata("design:type", Object)
], CreateESupportDto.prototype, "userName", void 0);
//# sourceMappingURL=create-esupport.dto.js.map