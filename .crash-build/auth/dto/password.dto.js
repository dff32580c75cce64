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
exports.ResetPasswordDto = exports.ForgotPasswordDto = exports.ChangePasswordDto = void 0;
exports.NewPassword = NewPassword;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const limits_1 = require("../../shared/limits");
const transforms_1 = require("../../common/transforms");
/** The rule every new password follows, on every route that sets one. */
function NewPassword() {
    return (target, key) => {
        (0, class_validator_1.IsString)()(target, key);
        (0, class_validator_1.MinLength)(limits_1.LIMITS.PASSWORD_MIN, { message: `Password must be at least ${limits_1.LIMITS.PASSWORD_MIN} characters long.` })(target, key);
        (0, class_validator_1.MaxLength)(limits_1.LIMITS.PASSWORD_MAX, { message: 'Password must be less than or equal to 50 characters.' })(target, key);
    };
}
class ChangePasswordDto {
    currentPassword;
    newPassword;
}
exports.ChangePasswordDto = ChangePasswordDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.IsNotEmpty)({ message: 'Input fields cannot be empty' }),
    (0, class_validator_1.MaxLength)(limits_1.LIMITS.PASSWORD_MAX, { message: 'Password must be less than or equal to 50 characters.' }),
    __metadata("design:type", String)
], ChangePasswordDto.prototype, "currentPassword", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    NewPassword(),
    __metadata("design:type", String)
], ChangePasswordDto.prototype, "newPassword", void 0);
class ForgotPasswordDto {
    username;
    mfaCode;
}
exports.ForgotPasswordDto = ForgotPasswordDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    (0, class_validator_1.IsEmail)({}, { message: 'Entered email is not a valid email' }),
    (0, class_validator_1.MaxLength)(limits_1.LIMITS.EMAIL_MAX, { message: 'Entered email must be less than or equal to 100 characters.' }),
    __metadata("design:type", String)
], ForgotPasswordDto.prototype, "username", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^\d{6}$/, { message: 'MFA must contain exactly 6 digits' }),
    __metadata("design:type", String)
], ForgotPasswordDto.prototype, "mfaCode", void 0);
class ResetPasswordDto {
    token;
    password;
}
exports.ResetPasswordDto = ResetPasswordDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.IsNotEmpty)({ message: 'Cannot extract token. Please double check if your URL is correct.' }),
    (0, class_validator_1.MaxLength)(200),
    __metadata("design:type", String)
], ResetPasswordDto.prototype, "token", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    NewPassword(),
    __metadata("design:type", String)
], ResetPasswordDto.prototype, "password", void 0);
//# sourceMappingURL=password.dto.js.map