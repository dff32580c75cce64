import { Body, Controller, Get, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { CreateESupportDto } from './dto/create-esupport.dto';
import { OrganisationsService } from './organisations.service';
import { Answers, Errors } from '../../platform/openapi/decorators';

/**
 * Access: E-Support only (spec 001 §6): creating a support account, and reading the fixed domain the
 * Create E-Support page shows as its addon. The new account joins the caller's (vendor) organisation.
 */
@ApiTags('organisations')
@Controller()
export class SupportAccountsController {
  constructor(
    private readonly organisations: OrganisationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Answers(201, 'ESupportCreated')
  @Errors(409)
  @Post('api/users/add-esupport')
  @Access({ roles: CAPABILITY_ROLES.SUPPORT, stepUp: true })
  createESupport(@CurrentUser() caller: AuthUser, @Body() dto: CreateESupportDto, @Client() client: RequestContext) {
    return this.organisations.createESupport(caller, dto, client);
  }

  @Answers(200, 'SupportDomain')
  @Get('api/support-accounts/domain')
  @Access({ roles: CAPABILITY_ROLES.SUPPORT })
  domain() {
    return { domain: this.config.supportEmailDomain };
  }
}
