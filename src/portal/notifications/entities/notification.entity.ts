import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';
import type { NotificationContent, NotificationType } from '../../../shared/portal/notifications';

/** A published notification: for one user (userId) or for the whole organisation (userId null). */
@Entity('notifications')
@Index('IDX_notifications_org_user', ['organisationId', 'userId', 'id'])
export class Notification {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  @Column({ type: 'integer', nullable: true })
  userId!: number | null;

  @Column({ type: 'varchar', length: 40 })
  type!: NotificationType;

  @Column({ type: 'simple-json' })
  content!: NotificationContent;

  @CreateDateColumn({ type: DATE_TYPE })
  createdAt!: Date;
}

/** One user's read/dismissed state of one notification; absent = unread and shown. */
@Entity('notification_receipts')
@Index('IDX_notification_receipts_user', ['userId'])
export class NotificationReceipt {
  @PrimaryColumn({ type: 'integer' })
  notificationId!: number;

  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @Column({ type: 'boolean', default: false })
  read!: boolean;

  @Column({ type: 'boolean', default: false })
  dismissed!: boolean;

  @Column({ type: DATE_TYPE, default: () => 'CURRENT_TIMESTAMP' })
  updatedAt!: Date;
}

/** 'Dismiss All': every notification up to this id is dismissed for the user. */
@Entity('notification_watermarks')
export class NotificationWatermark {
  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer', default: 0 })
  dismissedThroughId!: number;

  @Column({ type: DATE_TYPE, default: () => 'CURRENT_TIMESTAMP' })
  updatedAt!: Date;
}
