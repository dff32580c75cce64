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
exports.UpdateContactProfileDto = exports.CreateContactProfileDto = exports.ContactProfileDto = void 0;
const class_transformer_1 = require("class-transformer");
const transforms_1 = require("../../common/transforms");
const class_validator_1 = require("class-validator");
const organisation_admin_1 = require("../../shared/organisation-admin");
/** Spec 001 §3/§5: fullName required, every value trimmed before it is checked and saved. */
class ContactProfileDto {
    fullName = '';
    jobTitle;
    department;
    basedIn;
    email;
    mobile;
}
exports.ContactProfileDto = ContactProfileDto;
__decorate([
    (0, class_transformer_1.Transform)(transforms_1.trimOrEmpty),
    (0, class_validator_1.IsString)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.FULL_NAME_REQUIRED }),
    (0, class_validator_1.IsNotEmpty)({ message: organisation_admin_1.ORG_ADMIN_MESSAGES.FULL_NAME_REQUIRED }),
    (0, class_validator_1.MaxLength)(100, { message: 'Full name must be at most 100 characters' }),
    __metadata("design:type", Object)
], ContactProfileDto.prototype, "fullName", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(100, { message: 'Job title must be at most 100 characters' }),
    __metadata("design:type", String)
], ContactProfileDto.prototype, "jobTitle", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(100, { message: 'Department must be at most 100 characters' }),
    __metadata("design:type", String)
], ContactProfileDto.prototype, "department", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(100, { message: 'Based in must be at most 100 characters' }),
    __metadata("design:type", String)
], ContactProfileDto.prototype, "basedIn", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(100, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.EMAIL_TOO_LONG }),
    (0, class_validator_1.ValidateIf)((o) => !!o.email),
    (0, class_validator_1.Matches)(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: organisation_admin_1.ORG_ADMIN_MESSAGES.INVALID_EMAIL }),
    __metadata("design:type", String)
], ContactProfileDto.prototype, "email", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(40, { message: 'Mobile must be at most 40 characters' }),
    __metadata("design:type", String)
], ContactProfileDto.prototype, "mobile", void 0);
/** POST: a contact not saved yet (no id). */
class CreateContactProfileDto extends ContactProfileDto {
    /** Accepted and ignored when null, so the client can send the profile it read. */
    id;
}
exports.CreateContactProfileDto = CreateContactProfileDto;
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.ValidateIf)((_o, v) => v !== null),
    (0, class_validator_1.IsInt)(),
    __metadata("design:type", Object)
], CreateContactProfileDto.prototype, "id", void 0);
/** PUT: a saved contact, by its id. */
class UpdateContactProfileDto extends ContactProfileDto {
    id;
}
exports.UpdateContactProfileDto = UpdateContactProfileDto;
__decorate([
    (0, class_validator_1.IsInt)({ message: 'id must be the id of the saved contact' }),
    __metadata("design:type", Number)
], UpdateContactProfileDto.prototype, "id", void 0);
//# sourceMappingURL=contact-profile.dto.js.map