import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { CreateSiteAdminDto } from './dto/create-site-admin.dto';
import { OrganisationsService } from './organisations.service';
import { Answers, Errors } from '../../platform/openapi/decorators';

/**
 * Access: E-Support only (spec 001 §6 'Support creates site admin and e-support accounts'). Creating a
 * site admin opens a new organisation, so no other role, in any organisation, may call it.
 */
@ApiTags('organisations')
@Controller('auth/site-admin')
export class OrganisationsController {
  constructor(private readonly organisations: OrganisationsService) {}

  @Answers(201, 'SiteAdminCreated')
  @Errors(409)
  @Post()
  @Access({ roles: CAPABILITY_ROLES.SUPPORT, stepUp: true })
  createSiteAdmin(@CurrentUser() caller: AuthUser, @Body() dto: CreateSiteAdminDto, @Client() client: RequestContext) {
    return this.organisations.createSiteAdmin(caller, dto, client);
  }
}
