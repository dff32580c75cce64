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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.OrganisationController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const access_decorators_1 = require("../common/decorators/access.decorators");
const current_user_decorator_1 = require("../common/decorators/current-user.decorator");
const roles_1 = require("../shared/roles");
const user_list_query_dto_1 = require("./dto/user-list-query.dto");
const users_service_1 = require("./users.service");
/**
 * Access: the full organisation information (CONTRACT 3) is read by those who open the user list and the
 * create user page (support, site admin, administrator, standard admin), for their own organisation;
 * E-Support may name any organisation with ?organisationId=. Another organisation is a 404.
 */
let OrganisationController = class OrganisationController {
    users;
    constructor(users) {
        this.users = users;
    }
    organisation(caller, query) {
        return this.users.organisation(caller, query.organisationId);
    }
};
exports.OrganisationController = OrganisationController;
__decorate([
    (0, common_1.Get)('organisation'),
    (0, access_decorators_1.Roles)(roles_1.USER_MENU_ROLES),
    __param(0, (0, current_user_decorator_1.CurrentUser)()),
    __param(1, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, user_list_query_dto_1.OrganisationQueryDto]),
    __metadata("design:returntype", void 0)
], OrganisationController.prototype, "organisation", null);
exports.OrganisationController = OrganisationController = __decorate([
    (0, swagger_1.ApiTags)('organisation'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('auth'),
    __metadata("design:paramtypes", [users_service_1.UsersService])
], OrganisationController);
//# sourceMappingURL=organisation.controller.js.map