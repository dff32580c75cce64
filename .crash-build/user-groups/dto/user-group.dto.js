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
exports.CreateUserGroupDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const transforms_1 = require("../../common/transforms");
/** POST /api/user-groups */
class CreateUserGroupDto {
    name;
}
exports.CreateUserGroupDto = CreateUserGroupDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'Tax team' }),
    (0, class_transformer_1.Transform)(transforms_1.trim),
    (0, class_validator_1.IsString)({ message: 'Group name must not be empty' }),
    (0, class_validator_1.IsNotEmpty)({ message: 'Group name must not be empty' }),
    (0, class_validator_1.MaxLength)(100, { message: 'Group name must be less than or equal to 100 characters.' }),
    __metadata("design:type", String)
], CreateUserGroupDto.prototype, "name", void 0);
//# sourceMappingURL=user-group.dto.js.map