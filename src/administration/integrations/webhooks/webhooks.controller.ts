import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../../platform/web/auth-user';
import { Access } from '../../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../../platform/web/request-context';
import { Answers, Errors } from '../../../platform/openapi/decorators';
import { CAPABILITY_ROLES } from '../../../shared/roles';
import { OrganisationQueryDto } from '../../../identity/users';
import { ChangeWebhookDto, CreateWebhookDto } from '../dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

/**
 * Access: an organisation's webhook endpoints are managed by its site admins, and by E-Support for any organisation
 * (`?organisationId=`). Adding, changing, removing an endpoint and rotating its secret are sensitive (step-up) and
 * audited. Another organisation's endpoint, or its deliveries, is a 404.
 */
@ApiTags('webhooks')
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS })
  @Answers(200, ['WebhookEndpointItem'])
  list(@CurrentUser() caller: AuthUser, @Query() query: OrganisationQueryDto) {
    return this.webhooks.list(caller, query.organisationId);
  }

  @Post()
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(201, 'NewWebhookEndpoint', 'Added: the signing secret is shown this once')
  @Errors(409)
  create(
    @CurrentUser() caller: AuthUser,
    @Body() dto: CreateWebhookDto,
    @Query() query: OrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.webhooks.create(caller, dto, query.organisationId, client);
  }

  @Put(':id')
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(200, 'WebhookEndpointItem')
  change(
    @CurrentUser() caller: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: ChangeWebhookDto,
    @Client() client: RequestContext,
  ) {
    return this.webhooks.change(caller, id, dto, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(200, 'SuccessOnly', 'Removed, with its deliveries')
  remove(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.webhooks.remove(caller, id, client);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, stepUp: true })
  @Answers(200, 'RotatedWebhookSecret', 'The new secret, shown this once; the old one signs beside it for 24 h')
  @Errors(409)
  rotateSecret(
    @CurrentUser() caller: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Client() client: RequestContext,
  ) {
    return this.webhooks.rotateSecret(caller, id, client);
  }

  @Post(':id/test')
  @HttpCode(202)
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, supportSession: 'refused' })
  @Answers(202, 'WebhookDeliveryItem', 'A webhook.test event queued for this endpoint')
  test(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number) {
    return this.webhooks.test(caller, id);
  }

  @Get(':id/deliveries')
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS })
  @Answers(200, ['WebhookDeliveryItem'], 'The latest deliveries, newest first')
  deliveries(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number) {
    return this.webhooks.deliveriesOf(caller, id);
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @Access({ roles: CAPABILITY_ROLES.INTEGRATIONS, supportSession: 'refused' })
  @Answers(202, 'WebhookDeliveryItem', 'Due again now')
  retry(
    @CurrentUser() caller: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Param('deliveryId', ParseIdPipe) deliveryId: number,
  ) {
    return this.webhooks.retry(caller, id, deliveryId);
  }
}
