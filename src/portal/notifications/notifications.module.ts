import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { Notification, NotificationReceipt, NotificationWatermark } from './entities/notification.entity';
import { FileLinksService } from './file-links.service';
import { NotificationsController, ProcessedDataController, SignedFilesController } from './notifications.controller';
import { NotificationSockets } from './notification-sockets.service';
import { NotificationsGateway } from './notifications.gateway';
import { NotificationsService } from './notifications.service';
import { CredentialsModule } from '../../identity/credentials/credentials.module';
import { SessionsModule } from '../../identity/sessions';

/** Real-time notifications: storage, the socket.io gateway, publishing, signed download links. */
@Module({
  imports: [
    SessionsModule,
    CredentialsModule,
    TypeOrmModule.forFeature([Notification, NotificationReceipt, NotificationWatermark, User, Organisation]),
  ],
  controllers: [NotificationsController, ProcessedDataController, SignedFilesController],
  providers: [NotificationsService, NotificationSockets, NotificationsGateway, FileLinksService],
  exports: [NotificationsService, FileLinksService],
})
export class NotificationsModule {}
