/** What the notifications feature offers the rest of the server: other features import it from here, never from its files. */
export { NotificationsModule } from './notifications.module';
export { NotificationsService } from './notifications.service';
