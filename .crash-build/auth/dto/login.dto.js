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
exports.LoginDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const transforms_1 = require("../../common/transforms");
const limits_1 = require("../../shared/limits");
class LoginDto {
    username;
    password;
    acceptToS;
    mfaToken;
}
exports.LoginDto = LoginDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'jane@example.com' }),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    (0, class_validator_1.IsEmail)({}, { message: 'Entered email is not a valid email' }),
    (0, class_validator_1.MaxLength)(limits_1.LIMITS.EMAIL_MAX, { message: 'Entered email must be less than or equal to 100 characters.' }),
    __metadata("design:type", String)
], LoginDto.prototype, "username", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(limits_1.LIMITS.PASSWORD_MAX, { message: 'Entered password must be less than or equal to 50 characters.' }),
    __metadata("design:type", String)
], LoginDto.prototype, "password", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'The terms and conditions were accepted' }),
    (0, class_validator_1.IsBoolean)(),
    __metadata("design:type", Boolean)
], LoginDto.prototype, "acceptToS", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'TOTP or e-mailed code, with the challenge token as bearer' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^\d{6}$/, { message: 'MFA must contain exactly 6 digits' }),
    __metadata("design:type", String)
], LoginDto.prototype, "mfaToken", void 0);
//# sourceMappingURL=login.dto.js.map