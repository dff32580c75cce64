import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../common/auth-user';
import { ApiErrorDto, SuccessDto } from '../common/dto/api-responses.dto';
import { RequiresStepUp, Roles } from '../common/decorators/access.decorators';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe';
import { Client, RequestContext } from '../common/request-context';
import { CAPABILITY_ROLES } from '../shared/roles';
import {
  CreateSsoConnectionDto,
  SsoConnectionResponse,
  SsoOrganisationQueryDto,
  UpdateSsoConnectionDto,
} from './dto/sso-connection.dto';
import { SsoConnectionsService } from './sso-connections.service';

/**
 * Access (CONTRACT 6): site admins manage their organisation's identity providers, E-Support any organisation's
 * (`?organisationId=`), administrators read them. Another organisation's connection answers 404.
 */
@ApiTags('sso')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ApiErrorDto, description: 'Not signed in' })
@ApiForbiddenResponse({ type: ApiErrorDto, description: 'A role that may not do this' })
@Controller('api/sso-connections')
export class SsoConnectionsController {
  constructor(private readonly connections: SsoConnectionsService) {}

  @Get()
  @Roles(CAPABILITY_ROLES.SSO_SETTINGS_READ)
  @ApiOkResponse({ type: [SsoConnectionResponse], description: 'The connections, without secrets' })
  @ApiBadRequestResponse({ type: ApiErrorDto })
  @ApiNotFoundResponse({ type: ApiErrorDto, description: 'No such organisation, or another one' })
  list(@CurrentUser() caller: AuthUser, @Query() query: SsoOrganisationQueryDto) {
    return this.connections.list(caller, query.organisationId);
  }

  @Post()
  @Roles(CAPABILITY_ROLES.SSO_SETTINGS_MANAGE)
  @RequiresStepUp()
  @ApiCreatedResponse({ type: SsoConnectionResponse })
  @ApiBadRequestResponse({ type: ApiErrorDto })
  @ApiNotFoundResponse({ type: ApiErrorDto, description: 'No such organisation, or another one' })
  @ApiConflictResponse({ type: ApiErrorDto, description: 'The organisation has its maximum of connections' })
  create(
    @CurrentUser() caller: AuthUser,
    @Body() dto: CreateSsoConnectionDto,
    @Query() query: SsoOrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.connections.create(caller, dto, query.organisationId, client);
  }

  @Put(':id')
  @Roles(CAPABILITY_ROLES.SSO_SETTINGS_MANAGE)
  @RequiresStepUp()
  @ApiOkResponse({ type: SsoConnectionResponse })
  @ApiBadRequestResponse({ type: ApiErrorDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: UpdateSsoConnectionDto,
    @Client() client: RequestContext,
  ) {
    return this.connections.update(caller, id, dto, client);
  }

  @Delete(':id')
  @Roles(CAPABILITY_ROLES.SSO_SETTINGS_MANAGE)
  @RequiresStepUp()
  @ApiOkResponse({ type: SuccessDto })
  @ApiBadRequestResponse({ type: ApiErrorDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  remove(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.connections.remove(caller, id, client);
  }
}
