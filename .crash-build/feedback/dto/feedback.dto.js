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
exports.FeedbackDto = void 0;
const class_transformer_1 = require("class-transformer");
const transforms_1 = require("../../common/transforms");
const class_validator_1 = require("class-validator");
const shell_1 = require("../../shared/shell");
/** Non-blank text of at most `max` characters; one message per field (the specification's when missing). */
function RequiredText(requiredMessage, max, options) {
    return (0, class_validator_1.ValidateBy)({
        name: 'requiredText',
        validator: {
            validate: (v) => typeof v === 'string' && v.length > 0 && v.length <= max,
            defaultMessage: (args) => (typeof args?.value === 'string' && args.value.length > max ? `${args.property} must be at most ${max} characters.` : requiredMessage),
        },
    }, options);
}
/** POST /api/userFeedback/add (spec 001 §7): title, content, userId. */
class FeedbackDto {
    title;
    content;
    /** The client sends the signed-in user's id; the server records the caller and refuses anyone else's id. */
    userId;
}
exports.FeedbackDto = FeedbackDto;
__decorate([
    (0, class_transformer_1.Transform)(transforms_1.trim),
    RequiredText(shell_1.FEEDBACK_MESSAGES.TITLE_REQUIRED, shell_1.SHELL_LIMITS.FEEDBACK_TITLE_MAX),
    __metadata("design:type", String)
], FeedbackDto.prototype, "title", void 0);
__decorate([
    (0, class_transformer_1.Transform)(transforms_1.trim),
    RequiredText(shell_1.FEEDBACK_MESSAGES.CONTENT_REQUIRED, shell_1.SHELL_LIMITS.FEEDBACK_CONTENT_MAX),
    __metadata("design:type", String)
], FeedbackDto.prototype, "content", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)(),
    (0, class_validator_1.Min)(1),
    __metadata("design:type", Number)
], FeedbackDto.prototype, "userId", void 0);
//# sourceMappingURL=feedback.dto.js.map