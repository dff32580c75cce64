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
exports.OrganisationQueryDto = exports.UserListQueryDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const limits_1 = require("../../shared/limits");
const roles_1 = require("../../shared/roles");
/** Query of GET /api/users (UserListQuery): filtering and paging happen in the database. */
class UserListQueryDto {
    page;
    pageSize;
    searchText;
    accessLevel;
    role;
    organisationId;
}
exports.UserListQueryDto = UserListQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ default: 1 }),
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Type)(() => Number),
    (0, class_validator_1.IsInt)({ message: 'page must be a whole number.' }),
    (0, class_validator_1.Min)(1, { message: 'page must be 1 or more.' }),
    __metadata("design:type", Number)
], UserListQueryDto.prototype, "page", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: limits_1.LIMITS.PAGE_SIZES, default: limits_1.LIMITS.DEFAULT_PAGE_SIZE }),
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Type)(() => Number),
    (0, class_validator_1.IsIn)(limits_1.LIMITS.PAGE_SIZES, { message: 'pageSize must be 25, 50 or 100.' }),
    __metadata("design:type", Number)
], UserListQueryDto.prototype, "pageSize", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Name or e-mail, case-insensitive; % _ \\ are taken literally' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MaxLength)(limits_1.LIMITS.EMAIL_MAX, { message: 'searchText must be less than or equal to 100 characters.' }),
    __metadata("design:type", String)
], UserListQueryDto.prototype, "searchText", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ['all', 'hasAccess', 'noAccess'] }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['all', 'hasAccess', 'noAccess'], { message: 'accessLevel must be all, hasAccess or noAccess.' }),
    __metadata("design:type", String)
], UserListQueryDto.prototype, "accessLevel", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'A role id of the catalogue' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Type)(() => Number),
    (0, class_validator_1.IsIn)(roles_1.ALL_ROLES, { message: 'role must be a role id of the catalogue.' }),
    __metadata("design:type", Number)
], UserListQueryDto.prototype, "role", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'E-Support only: the organisation to list' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Type)(() => Number),
    (0, class_validator_1.IsInt)({ message: 'organisationId must be a whole number.' }),
    (0, class_validator_1.Min)(1, { message: 'organisationId must be a whole number.' }),
    __metadata("design:type", Number)
], UserListQueryDto.prototype, "organisationId", void 0);
/** Query of GET /auth/organisation. */
class OrganisationQueryDto {
    organisationId;
}
exports.OrganisationQueryDto = OrganisationQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'E-Support only: the organisation to read' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_1.Type)(() => Number),
    (0, class_validator_1.IsInt)({ message: 'organisationId must be a whole number.' }),
    (0, class_validator_1.Min)(1, { message: 'organisationId must be a whole number.' }),
    __metadata("design:type", Number)
], OrganisationQueryDto.prototype, "organisationId", void 0);
//# sourceMappingURL=user-list-query.dto.js.map