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
import { CreateLogStreamDto } from '../dto/log-stream.dto';
import { LogStreamsService } from './log-streams.service';

/**
 * Access: an organisation's audit log streams are managed by its site admins, and by E-Support for any organisation
 * (`?organisationId=`) or, without it, for every organisation at once. Adding and removing are sensitive (step-up)
 * and audited. Another organisation's stream is a 404.
 */
@ApiTags('log streams')
@Controller('api/log-streams')
export class LogStreamsController {
  constructor(private readonly streams: LogStreamsService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS })
  @Answers(200, ['LogStreamItem'])
  list(@CurrentUser() caller: AuthUser, @Query() query: OrganisationQueryDto) {
    return this.streams.list(caller, query.organisationId);
  }

  @Post()
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(201, 'LogStreamItem', 'Added; its token is never returned')
  @Errors(409)
  create(
    @CurrentUser() caller: AuthUser,
    @Body() dto: CreateLogStreamDto,
    @Query() query: OrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.streams.create(caller, dto, query.organisationId, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(200, 'SuccessOnly', 'Removed, with its undelivered events')
  remove(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.streams.remove(caller, id, client);
  }

  @Post(':id/test')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, supportSession: 'refused' })
  @Answers(200, 'LogStreamTestResult', 'A sample event sent now, and how the receiver answered')
  test(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number) {
    return this.streams.test(caller, id);
  }
}
