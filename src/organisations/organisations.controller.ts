import { Body, Controller, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth-user';
import { RequiresStepUp, Roles } from '../common/decorators/access.decorators';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import { Client, RequestContext } from '../common/request-context';
import { CAPABILITY_ROLES } from '../shared/roles';
import { CreateSiteAdminDto } from './dto/create-site-admin.dto';
import { OrganisationsService } from './organisations.service';
import { Answers, Errors } from '../openapi/decorators';

/**
 * Access: E-Support only (spec 001 §6 'Support creates site admin and e-support accounts'). Creating a
 * site admin opens a new organisation, so no other role, in any organisation, may call it.
 */
@ApiTags('organisations')
@ApiBearerAuth()
@Controller('auth/site-admin')
export class OrganisationsController {
  constructor(private readonly organisations: OrganisationsService) {}

  @Answers(201, 'SiteAdminCreated')
  @Errors(409)
  @Post()
  @Roles(CAPABILITY_ROLES.SUPPORT)
  @RequiresStepUp()
  createSiteAdmin(@CurrentUser() caller: AuthUser, @Body() dto: CreateSiteAdminDto, @Client() client: RequestContext) {
    return this.organisations.createSiteAdmin(caller, dto, client);
  }
}
