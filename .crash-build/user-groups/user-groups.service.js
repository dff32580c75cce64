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
exports.UserGroupsService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const app_exception_1 = require("../common/app.exception");
const users_service_1 = require("../users/users.service");
const user_group_member_entity_1 = require("./entities/user-group-member.entity");
const user_group_entity_1 = require("./entities/user-group.entity");
/** User groups of an organisation and their members; a group or user of another organisation is a 404. */
let UserGroupsService = class UserGroupsService {
    groups;
    members;
    users;
    constructor(groups, members, users) {
        this.groups = groups;
        this.members = members;
        this.users = users;
    }
    async items(groups) {
        if (groups.length === 0)
            return [];
        const counts = await this.members
            .createQueryBuilder('m')
            .select('m.groupId', 'groupId')
            .addSelect('COUNT(*)', 'n')
            .where({ groupId: (0, typeorm_2.In)(groups.map((g) => g.id)) })
            .groupBy('m.groupId')
            .getRawMany();
        const byGroup = new Map(counts.map((c) => [Number(c.groupId), Number(c.n)]));
        return groups.map((g) => ({ id: g.id, name: g.name, memberCount: byGroup.get(g.id) ?? 0 }));
    }
    async mappingOf(user) {
        const all = await this.groups.find({ where: { organisationId: user.organisationId }, order: { nameKey: 'ASC', id: 'ASC' } });
        const mine = new Set((await this.members.findBy({ userId: user.id })).map((m) => m.groupId));
        const allGroups = await this.items(all);
        return {
            userId: user.id,
            userEmail: user.email,
            firstName: user.firstName,
            lastName: user.lastName,
            groups: allGroups.filter((g) => mine.has(g.id)),
            allGroups,
        };
    }
    async mapping(caller, userId) {
        return this.mappingOf(await this.users.findAccessible(caller, userId));
    }
    async groupOf(user, groupId) {
        const group = await this.groups.findOneBy({ id: groupId });
        if (!group || group.organisationId !== user.organisationId)
            throw app_exception_1.AppException.notFound('User group not found.');
        return group;
    }
    async addMember(caller, userId, groupId) {
        const user = await this.users.findAccessible(caller, userId);
        const group = await this.groupOf(user, groupId);
        await this.members.createQueryBuilder().insert().into(user_group_member_entity_1.UserGroupMember).values({ groupId: group.id, userId: user.id }).orIgnore().execute();
        return this.mappingOf(user);
    }
    async removeMember(caller, userId, groupId) {
        const user = await this.users.findAccessible(caller, userId);
        const group = await this.groupOf(user, groupId);
        await this.members.delete({ groupId: group.id, userId: user.id });
        return this.mappingOf(user);
    }
    async create(caller, dto) {
        const nameKey = dto.name.toLowerCase();
        if (await this.groups.existsBy({ organisationId: caller.organisationId, nameKey })) {
            throw app_exception_1.AppException.conflict('A user group with this name already exists.', 'DUPLICATE_GROUP');
        }
        const group = await this.groups.save(this.groups.create({ organisationId: caller.organisationId, name: dto.name, nameKey }));
        return { id: group.id, name: group.name, memberCount: 0 };
    }
};
exports.UserGroupsService = UserGroupsService;
exports.UserGroupsService = UserGroupsService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(user_group_entity_1.UserGroup)),
    __param(1, (0, typeorm_1.InjectRepository)(user_group_member_entity_1.UserGroupMember)),
    __metadata("design:paramtypes", [typeorm_2.Repository,
        typeorm_2.Repository,
        users_service_1.UsersService])
], UserGroupsService);
//# sourceMappingURL=user-groups.service.js.map