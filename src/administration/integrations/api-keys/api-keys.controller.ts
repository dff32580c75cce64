import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../../platform/web/auth-user';
import { Access } from '../../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../../platform/web/request-context';
import { Answers, Errors } from '../../../platform/openapi/decorators';
import { CAPABILITY_ROLES } from '../../../shared/roles';
import { OrganisationQueryDto } from '../../../identity/users';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto } from './dto/api-key.dto';

/**
 * Access (docs/api-keys.md): an organisation's API keys are listed, created and revoked by its site admin, or by
 * E-Support for any organisation (`?organisationId=`); creating and revoking are sensitive (step-up). Another
 * organisation's key is a 404. No API key manages keys. The key is shown once, when created.
 */
@ApiTags('api keys')
@Controller('api/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS })
  @Answers(200, ['ApiKeyItem'])
  list(@CurrentUser() caller: AuthUser, @Query() query: OrganisationQueryDto) {
    return this.keys.list(caller, query.organisationId);
  }

  @Post()
  @HttpCode(201)
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(201, 'NewApiKey', 'The key: shown this once, stored only as its hash')
  @Errors(409)
  create(
    @CurrentUser() caller: AuthUser,
    @Body() dto: CreateApiKeyDto,
    @Query() query: OrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.keys.create(caller, dto, query.organisationId, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(200, 'SuccessOnly')
  revoke(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.keys.revoke(caller, id, client);
  }
}
