import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentProfile, CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CurrentUserInfo } from '../../shared/api-types';
import { CAPABILITY_ROLES, includesPrivilegedRole } from '../../shared/roles';
import {
  AddUserDto,
  DisableUserDto,
  EnforceMfaDto,
  UpdatePasswordDto,
  UpdateProfileDto,
  UpdateRoleDto,
  UpdateSsoDto,
} from './dto/user-changes.dto';
import { UserListQueryDto } from './dto/user-list-query.dto';
import { UsersService } from './users.service';
import { ProfileService } from './profile.service';
import { NewUserService } from './new-user.service';
import { Answers, Errors } from '../../platform/openapi/decorators';

/**
 * Access: the list is read by support, site admins, administrators and standard admins (read-only for the
 * last); roles are changed by support (Site Admin only), site admins and administrators; access is changed by
 * the writers (site admin, administrator); SSO and MFA enforcement by site admins only; users are created by
 * the writers. current, byId (own), updateUser and updatePassword are one's own, for every role, and stay
 * open while MFA enrolment is due. Every query is confined to the caller's organisation (E-Support: all);
 * another organisation's user is a 404. Static paths are declared before ':id'-style ones.
 */
@ApiTags('users')
@Controller('api/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly newUsers: NewUserService,
    private readonly profile: ProfileService,
  ) {}

  @Answers(200, 'UserListPage')
  @Get()
  @Access({ roles: CAPABILITY_ROLES.USER_LIST, apiKey: 'users:read' })
  list(@CurrentUser() caller: AuthUser, @Query() query: UserListQueryDto) {
    return this.users.list(caller, query);
  }

  @Answers(200, 'CurrentUserInfo')
  @Get('current')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, mfaPending: true })
  current(@CurrentProfile() profile: CurrentUserInfo): CurrentUserInfo {
    // Read with the session by the JWT guard: no second query.
    return profile;
  }

  @Answers(200, 'SingleUser')
  @Get('byId/:id')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, mfaPending: true, apiKey: 'users:read' })
  byId(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number) {
    return this.users.byId(caller, id);
  }

  @Answers(200, 'SuccessResult')
  @Errors(409)
  @Put('updateRole')
  @Access({
    roles: CAPABILITY_ROLES.USER_DETAILS,
    stepUp: {
      when: ({ body }) => includesPrivilegedRole((body as { newUserRoleIds?: unknown })?.newUserRoleIds),
    },
    apiKey: 'users:write',
  })
  updateRole(@CurrentUser() caller: AuthUser, @Body() dto: UpdateRoleDto, @Client() client: RequestContext) {
    return this.users.updateRole(caller, dto, client);
  }

  @Answers(200, 'SuccessResult')
  @Put('enforceMFA')
  @Access({ roles: CAPABILITY_ROLES.MFA_SSO_ENFORCEMENT, apiKey: 'users:write' })
  enforceMfa(@CurrentUser() caller: AuthUser, @Body() dto: EnforceMfaDto, @Client() client: RequestContext) {
    return this.users.enforceMfa(caller, dto, client);
  }

  @Answers(200, 'SuccessResult')
  @Put('updateSsoStatus')
  @Access({ roles: CAPABILITY_ROLES.MFA_SSO_ENFORCEMENT })
  updateSso(@CurrentUser() caller: AuthUser, @Body() dto: UpdateSsoDto, @Client() client: RequestContext) {
    return this.users.updateSso(caller, dto, client);
  }

  @Answers(200, 'SuccessResult')
  @Errors(409)
  @Put('disableUser')
  @Access({ roles: CAPABILITY_ROLES.USER_ADMIN, apiKey: 'users:write' })
  disableUser(@CurrentUser() caller: AuthUser, @Body() dto: DisableUserDto, @Client() client: RequestContext) {
    return this.users.disableUser(caller, dto, client);
  }

  @Answers(200, 'SingleUser')
  @Put('updateUser')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, mfaPending: true })
  updateUser(@CurrentUser() caller: AuthUser, @Body() dto: UpdateProfileDto) {
    return this.profile.updateProfile(caller, dto);
  }

  @Answers(200, 'SuccessResult')
  @Patch('updatePassword')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, mfaPending: true, supportSession: 'refused' })
  @Throttle({ default: { limit: 30, ttl: 60_000 } })
  updatePassword(@CurrentUser() caller: AuthUser, @Body() dto: UpdatePasswordDto, @Client() client: RequestContext) {
    return this.profile.updatePassword(caller, dto, client);
  }

  @Answers(201, 'NewUserResult')
  @Errors(409)
  @Post('add')
  @HttpCode(201)
  @Access({
    roles: CAPABILITY_ROLES.USER_ADMIN,
    stepUp: { when: ({ body }) => includesPrivilegedRole((body as { userRoleIds?: unknown })?.userRoleIds) },
    apiKey: 'users:write',
  })
  add(@CurrentUser() caller: AuthUser, @Body() dto: AddUserDto, @Client() client: RequestContext) {
    return this.newUsers.add(caller, dto, client);
  }
}
