import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { OrganisationQueryDto } from './dto/user-list-query.dto';
import { UsersService } from './users.service';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: the full organisation information (docs/product-rules.md §3) is read by those who open the user list and the
 * create user page (support, site admin, administrator, standard admin), for their own organisation;
 * E-Support may name any organisation with ?organisationId=. Another organisation is a 404.
 */
@ApiTags('organisation')
@Controller('auth')
export class OrganisationController {
  constructor(private readonly users: UsersService) {}

  @Answers(200, 'OrganisationInfo')
  @Get('organisation')
  @Access({ roles: CAPABILITY_ROLES.USER_LIST, apiKey: 'users:read' })
  organisation(@CurrentUser() caller: AuthUser, @Query() query: OrganisationQueryDto) {
    return this.users.organisation(caller, query.organisationId);
  }
}
