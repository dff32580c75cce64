import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { DeliveryAttempts } from './delivery/delivery-attempts.service';
import { DeliveryEngine } from './delivery/delivery-engine.service';
import { IntegrationOutbox } from './delivery/integration-outbox';
import { IntegrationDelivery } from './entities/integration-delivery.entity';
import { LogStream } from './entities/log-stream.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { LogStreamsController } from './log-streams/log-streams.controller';
import { LogStreamsService } from './log-streams/log-streams.service';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';

/**
 * What an organisation's own systems receive: signed webhooks and audit log streams, both sent from one outbox
 * (docs/integrations.md, docs/decisions/webhook-outbox.md).
 */
@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([WebhookEndpoint, LogStream, IntegrationDelivery, Organisation])],
  controllers: [WebhooksController, LogStreamsController],
  providers: [DeliveryEngine, DeliveryAttempts, IntegrationOutbox, WebhooksService, LogStreamsService],
  exports: [DeliveryEngine],
})
export class IntegrationsModule {}
