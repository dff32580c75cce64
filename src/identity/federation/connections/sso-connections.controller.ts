import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../../platform/web/auth-user';
import { Access } from '../../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../../platform/web/decorators/current-user.decorator';
import { SecretInPath } from '../../../platform/web/http/secret-paths';
import { ParseIdPipe } from '../../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../../shared/roles';
import { CreateSsoConnectionDto, SsoOrganisationQueryDto, UpdateSsoConnectionDto } from './dto/sso-connection.dto';
import { SsoConnectionsService } from './sso-connections.service';
import { SsoConnectionTestService, TEST_RESULT_KEY } from '../connection-test/sso-connection-test.service';
import { Answers, Errors } from '../../../platform/openapi/decorators';

/**
 * Access (docs/product-rules.md §6): site admins manage their organisation's identity providers, E-Support any organisation's
 * (`?organisationId=`), administrators read them. Another organisation's connection answers 404.
 */
@ApiTags('sso')
@Controller('api/sso-connections')
export class SsoConnectionsController {
  constructor(
    private readonly connections: SsoConnectionsService,
    private readonly tests: SsoConnectionTestService,
  ) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_READ })
  @Answers(200, ['SsoConnectionItem'], 'The connections, without secrets')
  list(@CurrentUser() caller: AuthUser, @Query() query: SsoOrganisationQueryDto) {
    return this.connections.list(caller, query.organisationId);
  }

  @Post()
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_MANAGE, stepUp: true })
  @Answers(201, 'SsoConnectionItem', 'Created, without secrets')
  // The organisation has its maximum of connections.
  @Errors(409)
  create(
    @CurrentUser() caller: AuthUser,
    @Body() dto: CreateSsoConnectionDto,
    @Query() query: SsoOrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.connections.create(caller, dto, query.organisationId, client);
  }

  @Put(':id')
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_MANAGE, stepUp: true })
  @Answers(200, 'SsoConnectionItem', 'Changed, without secrets')
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: UpdateSsoConnectionDto,
    @Client() client: RequestContext,
  ) {
    return this.connections.update(caller, id, dto, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_MANAGE, stepUp: true })
  @Answers(200, 'SuccessOnly', 'Removed')
  remove(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.connections.remove(caller, id, client);
  }

  /** A test changes nothing and signs nobody in: no step-up, but only those who may change the connection. */
  @Post(':id/test')
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_MANAGE })
  @Answers(201, 'SsoTestStart', 'Where the browser starts the test sign-in (a ticket valid for 10 minutes)')
  test(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number) {
    return this.tests.begin(caller, id);
  }

  @Get(':id/test-results/:key')
  @SecretInPath('key')
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_MANAGE })
  @ApiParam({ name: 'key', schema: { type: 'string', pattern: TEST_RESULT_KEY.source, maxLength: 32 } })
  @Answers(200, 'SsoTestResult', 'What the provider sent and what a real sign-in would do; for the tester only')
  testResult(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Param('key') key: string) {
    return this.tests.result(caller, id, key);
  }
}
