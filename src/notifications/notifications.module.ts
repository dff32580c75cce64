import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../organisations/entities/organisation.entity';
import { User } from '../users/entities/user.entity';
import { Notification, NotificationReceipt, NotificationWatermark } from './entities/notification.entity';
import { FileLinksService } from './file-links.service';
import { NotificationsController, ProcessedDataController, SignedFilesController } from './notifications.controller';
import { NotificationsGateway } from './notifications.gateway';
import { NotificationsService } from './notifications.service';

/** Real-time notifications: storage, the socket.io gateway, publishing, signed download links. */
@Module({
  imports: [TypeOrmModule.forFeature([Notification, NotificationReceipt, NotificationWatermark, User, Organisation])],
  controllers: [NotificationsController, ProcessedDataController, SignedFilesController],
  providers: [NotificationsService, NotificationsGateway, FileLinksService],
  exports: [NotificationsService, FileLinksService],
})
export class NotificationsModule {}
