import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { Answers, Errors } from '../../platform/openapi/decorators';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { OrganisationQueryDto } from '../users';
import { CreateOidcClientDto, UpdateOidcClientDto } from './dto/oidc-client.dto';
import { OidcClientsService } from './oidc-clients.service';

/**
 * Access (docs/oidc-provider.md): E-Support lists and registers the deployment's applications (without
 * organisationId) and any organisation's (`?organisationId=`); a site admin its own organisation's. Registering,
 * changing, rotating and removing are sensitive (step-up). Another organisation's application is a 404. No API key
 * manages applications.
 */
@ApiTags('openid provider')
@Controller('api/oidc-clients')
export class OidcClientsController {
  constructor(private readonly clients: OidcClientsService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS })
  @Answers(200, ['OidcClientItem'])
  list(@CurrentUser() caller: AuthUser, @Query() query: OrganisationQueryDto) {
    return this.clients.list(caller, query.organisationId);
  }

  @Post()
  @HttpCode(201)
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(201, 'NewOidcClient', 'The application; a confidential one with its secret, shown this once')
  @Errors(409)
  create(
    @CurrentUser() caller: AuthUser,
    @Body() dto: CreateOidcClientDto,
    @Query() query: OrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.clients.create(caller, dto, query.organisationId, client);
  }

  @Put(':id')
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(200, 'OidcClientItem')
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: UpdateOidcClientDto,
    @Client() client: RequestContext,
  ) {
    return this.clients.update(caller, id, dto, client);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(200, 'RotatedOidcClientSecret', 'The new secret, shown this once')
  rotateSecret(
    @CurrentUser() caller: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Client() client: RequestContext,
  ) {
    return this.clients.rotateSecret(caller, id, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(200, 'SuccessOnly')
  remove(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.clients.remove(caller, id, client);
  }
}
