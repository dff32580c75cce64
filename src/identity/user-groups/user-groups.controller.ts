import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { CreateUserGroupDto } from './dto/user-group.dto';
import { UserGroupsService } from './user-groups.service';
import { Answers, Errors } from '../../platform/openapi/decorators';

/** Who opens the user group mapping view users/{userId}/user-groups (spec 000 §6, 001 §2.1). */

/**
 * Access: a user's group mapping is read by site admins, administrators and standard admins; memberships are
 * added and removed, and groups created, by the writers (site admin, administrator). All within the caller's
 * organisation: another organisation's user or group is a 404.
 */
@ApiTags('user-groups')
@Controller('api')
export class UserGroupsController {
  constructor(private readonly userGroups: UserGroupsService) {}

  @Answers(200, 'UserGroupMapping')
  @Get('users/:userId/user-groups')
  @Access({ roles: CAPABILITY_ROLES.USER_GROUP_MAPPING, apiKey: 'users:read' })
  mapping(@CurrentUser() caller: AuthUser, @Param('userId', ParseIdPipe) userId: number) {
    return this.userGroups.mapping(caller, userId);
  }

  @Answers(200, 'UserGroupMapping')
  @Put('users/:userId/user-groups/:groupId')
  @Access({ roles: CAPABILITY_ROLES.USER_ADMIN, apiKey: 'users:write' })
  add(
    @CurrentUser() caller: AuthUser,
    @Param('userId', ParseIdPipe) userId: number,
    @Param('groupId', ParseIdPipe) groupId: number,
  ) {
    return this.userGroups.addMember(caller, userId, groupId);
  }

  @Answers(200, 'UserGroupMapping')
  @Delete('users/:userId/user-groups/:groupId')
  @Access({ roles: CAPABILITY_ROLES.USER_ADMIN, apiKey: 'users:write' })
  remove(
    @CurrentUser() caller: AuthUser,
    @Param('userId', ParseIdPipe) userId: number,
    @Param('groupId', ParseIdPipe) groupId: number,
  ) {
    return this.userGroups.removeMember(caller, userId, groupId);
  }

  @Answers(201, 'UserGroupItem')
  @Errors(409)
  @Post('user-groups')
  @Access({ roles: CAPABILITY_ROLES.USER_ADMIN, apiKey: 'users:write' })
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateUserGroupDto) {
    return this.userGroups.create(caller, dto);
  }
}
