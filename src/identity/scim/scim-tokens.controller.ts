import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { OrganisationQueryDto } from '../users';
import { CreateScimTokenDto, ErrorBodyDto, NewScimTokenDto, RevokedDto, ScimTokenItemDto } from './dto/scim-token.dto';
import { ScimTokensService } from './scim-tokens.service';

/**
 * Access (docs/product-rules.md §6): an organisation's provisioning tokens are created and revoked by its site admin, or by
 * E-Support for any organisation (`?organisationId=`); its administrators may list them. Another organisation's
 * token is a 404. A token is shown once, when created.
 */
@ApiTags('directory provisioning')
@ApiResponse({ status: 400, type: ErrorBodyDto, description: 'Bad input, or the vendor organisation' })
@ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such token or organisation (or another’s)' })
@Controller('api/scim-tokens')
export class ScimTokensController {
  constructor(private readonly tokens: ScimTokensService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.PROVISIONING_READ })
  @ApiOkResponse({ type: [ScimTokenItemDto] })
  list(@CurrentUser() caller: AuthUser, @Query() query: OrganisationQueryDto) {
    return this.tokens.list(caller, query.organisationId);
  }

  @Post()
  @Access({ roles: CAPABILITY_ROLES.PROVISIONING_MANAGE, stepUp: true })
  @ApiCreatedResponse({ type: NewScimTokenDto })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'The organisation has its maximum of tokens' })
  create(
    @CurrentUser() caller: AuthUser,
    @Body() dto: CreateScimTokenDto,
    @Query() query: OrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.tokens.create(caller, dto.name, query.organisationId, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.PROVISIONING_MANAGE, stepUp: true })
  @ApiOkResponse({ type: RevokedDto })
  revoke(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.tokens.revoke(caller, id, client);
  }
}
