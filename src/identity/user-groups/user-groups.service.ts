import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { UserGroupItem, UserGroupMapping } from '../../shared/api-types';
import { User } from '../../platform/database/entities/user.entity';
import { UsersService } from '../users';
import { CreateUserGroupDto } from './dto/user-group.dto';
import { UserGroupMember } from './entities/user-group-member.entity';
import { UserGroup } from './entities/user-group.entity';
import { ERROR_CODES } from '../../shared/messages';

/** User groups of an organisation and their members; a group or user of another organisation is a 404. */
@Injectable()
export class UserGroupsService {
  constructor(
    @InjectRepository(UserGroup) private readonly groups: Repository<UserGroup>,
    @InjectRepository(UserGroupMember) private readonly members: Repository<UserGroupMember>,
    private readonly users: UsersService,
  ) {}

  private async items(groups: UserGroup[]): Promise<UserGroupItem[]> {
    if (groups.length === 0) return [];
    const counts = await this.members
      .createQueryBuilder('m')
      .select('m.groupId', 'groupId')
      .addSelect('COUNT(*)', 'n')
      .where({ groupId: In(groups.map((g) => g.id)) })
      .groupBy('m.groupId')
      .getRawMany<{ groupId: number; n: number }>();
    const byGroup = new Map(counts.map((c) => [Number(c.groupId), Number(c.n)]));
    return groups.map((g) => ({ id: g.id, name: g.name, memberCount: byGroup.get(g.id) ?? 0 }));
  }

  private async mappingOf(user: User): Promise<UserGroupMapping> {
    const all = await this.groups.find({
      where: { organisationId: user.organisationId },
      order: { nameKey: 'ASC', id: 'ASC' },
    });
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

  async mapping(caller: AuthUser, userId: number): Promise<UserGroupMapping> {
    return this.mappingOf(await this.users.findAccessible(caller, userId));
  }

  private async groupOf(user: User, groupId: number): Promise<UserGroup> {
    const group = await this.groups.findOneBy({ id: groupId });
    if (!group || group.organisationId !== user.organisationId) throw AppException.notFound('User group not found.');
    return group;
  }

  async addMember(caller: AuthUser, userId: number, groupId: number): Promise<UserGroupMapping> {
    const user = await this.users.findAccessible(caller, userId);
    const group = await this.groupOf(user, groupId);
    await this.members
      .createQueryBuilder()
      .insert()
      .into(UserGroupMember)
      .values({ groupId: group.id, userId: user.id })
      .orIgnore()
      .execute();
    return this.mappingOf(user);
  }

  async removeMember(caller: AuthUser, userId: number, groupId: number): Promise<UserGroupMapping> {
    const user = await this.users.findAccessible(caller, userId);
    const group = await this.groupOf(user, groupId);
    await this.members.delete({ groupId: group.id, userId: user.id });
    return this.mappingOf(user);
  }

  async create(caller: AuthUser, dto: CreateUserGroupDto): Promise<UserGroupItem> {
    const nameKey = dto.name.toLowerCase();
    if (await this.groups.existsBy({ organisationId: caller.organisationId, nameKey })) {
      throw AppException.conflict('A user group with this name already exists.', ERROR_CODES.DUPLICATE_GROUP);
    }
    const group = await this.groups.save(
      this.groups.create({ organisationId: caller.organisationId, name: dto.name, nameKey }),
    );
    return { id: group.id, name: group.name, memberCount: 0 };
  }
}
