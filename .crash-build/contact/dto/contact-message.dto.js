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
exports.ContactMessageDto = void 0;
const class_validator_1 = require("class-validator");
const shell_1 = require("../../shared/shell");
/**
 * POST /api/users/contact-email/ (spec 001 §7): name, email, subject, message. The decorators only
 * type the body; the form's own rule (src/shared/shell.ts validateContactMessage) runs in the service.
 */
class ContactMessageDto {
    name;
    email;
    subject;
    message;
}
exports.ContactMessageDto = ContactMessageDto;
__decorate([
    (0, class_validator_1.IsString)({ message: shell_1.CONTACT_MESSAGES.NAME_REQUIRED }),
    (0, class_validator_1.MaxLength)(shell_1.SHELL_LIMITS.CONTACT_NAME_MAX),
    __metadata("design:type", String)
], ContactMessageDto.prototype, "name", void 0);
__decorate([
    (0, class_validator_1.IsString)({ message: shell_1.CONTACT_MESSAGES.EMAIL_REQUIRED }),
    (0, class_validator_1.MaxLength)(shell_1.SHELL_LIMITS.CONTACT_EMAIL_MAX),
    __metadata("design:type", String)
], ContactMessageDto.prototype, "email", void 0);
__decorate([
    (0, class_validator_1.IsString)({ message: shell_1.CONTACT_MESSAGES.SUBJECT_REQUIRED }),
    (0, class_validator_1.MaxLength)(shell_1.SHELL_LIMITS.CONTACT_SUBJECT_MAX),
    __metadata("design:type", String)
], ContactMessageDto.prototype, "subject", void 0);
__decorate([
    (0, class_validator_1.IsString)({ message: shell_1.CONTACT_MESSAGES.MESSAGE_REQUIRED }),
    (0, class_validator_1.MaxLength)(shell_1.SHELL_LIMITS.CONTACT_MESSAGE_MAX),
    __metadata("design:type", String)
], ContactMessageDto.prototype, "message", void 0);
//# sourceMappingURL=contact-message.dto.js.map