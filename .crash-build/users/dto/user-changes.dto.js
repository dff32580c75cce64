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
exports.AddUserDto = exports.UpdatePasswordDto = exports.UpdateProfileDto = exports.DisableUserDto = exports.UpdateSsoDto = exports.EnforceMfaDto = exports.UpdateRoleDto = exports.UserIdDto = void 0;
exports.newUserEmailError = newUserEmailError;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const password_dto_1 = require("../../auth/dto/password.dto");
const transforms_1 = require("../../common/transforms");
const limits_1 = require("../../shared/limits");
const lower = ({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
/** The new user's e-mail: one message per failure, in the order of spec 000 §5 (empty, too long, invalid). */
function newUserEmailError(value) {
    if (typeof value !== 'string' || value.length === 0)
        return 'User email must not be empty';
    if (value.length > limits_1.LIMITS.EMAIL_MAX)
        return 'Entered email must be less than or equal to 100 characters.';
    if (!(0, class_validator_1.isEmail)(value))
        return 'Entered email is not a valid email';
    return null;
}
function IsNewUserEmail() {
    return (0, class_validator_1.ValidateBy)({
        name: 'isNewUserEmail',
        validator: { validate: (value) => newUserEmailError(value) === null, defaultMessage: (args) => newUserEmailError(args?.value) ?? '' },
    });
}
/** A target user: every admin change names one. */
class UserIdDto {
    userId;
}
exports.UserIdDto = UserIdDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_validator_1.IsInt)({ message: 'userId must be a whole number.' }),
    (0, class_validator_1.Min)(1, { message: 'userId must be a whole number.' }),
    __metadata("design:type", Number)
], UserIdDto.prototype, "userId", void 0);
/** PUT /api/users/updateRole */
class UpdateRoleDto extends UserIdDto {
    newUserRoleIds;
}
exports.UpdateRoleDto = UpdateRoleDto;
__decorate([
    (0, swagger_1.ApiProperty)({ type: [Number], example: [4, 3] }),
    (0, class_validator_1.IsArray)({ message: 'newUserRoleIds must be a list of role ids.' }),
    (0, class_validator_1.ArrayNotEmpty)({ message: 'Choose a role.' }),
    (0, class_validator_1.ArrayMaxSize)(2, { message: 'Choose exactly one role, optionally with the Administrator role.' }),
    (0, class_validator_1.IsInt)({ each: true, message: 'newUserRoleIds must be a list of role ids.' }),
    __metadata("design:type", Array)
], UpdateRoleDto.prototype, "newUserRoleIds", void 0);
/** PUT /api/users/enforceMFA */
class EnforceMfaDto extends UserIdDto {
    isMFAEnforced;
}
exports.EnforceMfaDto = EnforceMfaDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_validator_1.IsBoolean)({ message: 'isMFAEnforced must be true or false.' }),
    __metadata("design:type", Boolean)
], EnforceMfaDto.prototype, "isMFAEnforced", void 0);
/** PUT /api/users/updateSsoStatus */
class UpdateSsoDto extends UserIdDto {
    isSSOEnabled;
}
exports.UpdateSsoDto = UpdateSsoDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_validator_1.IsBoolean)({ message: 'isSSOEnabled must be true or false.' }),
    __metadata("design:type", Boolean)
], UpdateSsoDto.prototype, "isSSOEnabled", void 0);
/** PUT /api/users/disableUser */
class DisableUserDto extends UserIdDto {
    isDisabled;
}
exports.DisableUserDto = DisableUserDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_validator_1.IsBoolean)({ message: 'isDisabled must be true or false.' }),
    __metadata("design:type", Boolean)
], DisableUserDto.prototype, "isDisabled", void 0);
function ProfileField(label) {
    return (target, key) => {
        (0, swagger_1.ApiPropertyOptional)({ maxLength: 100 })(target, key);
        (0, class_validator_1.IsOptional)()(target, key);
        (0, class_transformer_1.Transform)(transforms_1.trim)(target, key);
        (0, class_validator_1.IsString)({ message: `${label} must be text.` })(target, key);
        (0, class_validator_1.MaxLength)(100, { message: `${label} must be less than or equal to 100 characters.` })(target, key);
    };
}
/** PUT /api/users/updateUser: the caller's own profile; fields are trimmed (spec 000 §5); absent ones stay. */
class UpdateProfileDto {
    userId;
    firstName;
    lastName;
    jobTitle;
    department;
    location;
}
exports.UpdateProfileDto = UpdateProfileDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'When given, must be the caller (one edits only one\'s own profile)' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)({ message: 'userId must be a whole number.' }),
    __metadata("design:type", Number)
], UpdateProfileDto.prototype, "userId", void 0);
__decorate([
    ProfileField('First name'),
    __metadata("design:type", String)
], UpdateProfileDto.prototype, "firstName", void 0);
__decorate([
    ProfileField('Last name'),
    __metadata("design:type", String)
], UpdateProfileDto.prototype, "lastName", void 0);
__decorate([
    ProfileField('Job title'),
    __metadata("design:type", String)
], UpdateProfileDto.prototype, "jobTitle", void 0);
__decorate([
    ProfileField('Department'),
    __metadata("design:type", String)
], UpdateProfileDto.prototype, "department", void 0);
__decorate([
    ProfileField('Location'),
    __metadata("design:type", String)
], UpdateProfileDto.prototype, "location", void 0);
/** PATCH /api/users/updatePassword: the new password, and the current one to prove it is the owner. */
class UpdatePasswordDto {
    userPassword;
    currentPassword;
}
exports.UpdatePasswordDto = UpdatePasswordDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, password_dto_1.NewPassword)(),
    __metadata("design:type", String)
], UpdatePasswordDto.prototype, "userPassword", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_validator_1.IsString)({ message: 'Input fields cannot be empty' }),
    (0, class_validator_1.IsNotEmpty)({ message: 'Input fields cannot be empty' }),
    (0, class_validator_1.MaxLength)(limits_1.LIMITS.PASSWORD_MAX, { message: 'Password must be less than or equal to 50 characters.' }),
    __metadata("design:type", String)
], UpdatePasswordDto.prototype, "currentPassword", void 0);
/** POST /api/users/add (spec 000 §3 'New user payload'; defaults of §9: MFA enforced, no SSO, the base role). */
class AddUserDto {
    userEmail;
    isMFAEnforced;
    userRoleIds;
    isSSO;
}
exports.AddUserDto = AddUserDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'new.user@example.com' }),
    (0, class_transformer_1.Transform)(lower),
    IsNewUserEmail(),
    __metadata("design:type", String)
], AddUserDto.prototype, "userEmail", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ default: true }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsBoolean)({ message: 'isMFAEnforced must be true or false.' }),
    __metadata("design:type", Boolean)
], AddUserDto.prototype, "isMFAEnforced", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ type: [Number], default: [4] }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsArray)({ message: 'userRoleIds must be a list of role ids.' }),
    (0, class_validator_1.ArrayNotEmpty)({ message: 'Choose a role.' }),
    (0, class_validator_1.ArrayMaxSize)(2, { message: 'Choose exactly one role, optionally with the Administrator role.' }),
    (0, class_validator_1.IsInt)({ each: true, message: 'userRoleIds must be a list of role ids.' }),
    __metadata("design:type", Array)
], AddUserDto.prototype, "userRoleIds", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ default: false }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsBoolean)({ message: 'isSSO must be true or false.' }),
    __metadata("design:type", Boolean)
], AddUserDto.prototype, "isSSO", void 0);
//# sourceMappingURL=user-changes.dto.js.map