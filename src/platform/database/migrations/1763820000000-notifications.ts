import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/**
 * Notifications (spec 001 §3): one row per published notification (userId null = the whole
 * organisation), per-user read/dismissed receipts, and a per-user 'Dismiss All' watermark so that
 * dismissing everything is one write however many notifications there are.
 */
export class Notifications1763820000000 implements MigrationInterface {
  name = 'Notifications1763820000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, now, id, createdAt } = portable(q);

    await q.createTable(
      new Table({
        name: 'notifications',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'userId', type: 'integer', isNullable: true },
          { name: 'type', type: 'varchar', length: '40' },
          { name: 'content', type: 'text' },
          createdAt,
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations'), foreignKey('userId', 'users')],
      }),
    );
    await q.createIndex(
      'notifications',
      new TableIndex({ name: 'IDX_notifications_org_user', columnNames: ['organisationId', 'userId', 'id'] }),
    );

    await q.createTable(
      new Table({
        name: 'notification_receipts',
        columns: [
          { name: 'notificationId', type: 'integer', isPrimary: true },
          { name: 'userId', type: 'integer', isPrimary: true },
          { name: 'read', type: 'boolean', default: false },
          { name: 'dismissed', type: 'boolean', default: false },
          { name: 'updatedAt', type: date, default: now },
        ],
        foreignKeys: [foreignKey('notificationId', 'notifications'), foreignKey('userId', 'users')],
      }),
    );
    await q.createIndex(
      'notification_receipts',
      new TableIndex({ name: 'IDX_notification_receipts_user', columnNames: ['userId'] }),
    );

    await q.createTable(
      new Table({
        name: 'notification_watermarks',
        columns: [
          { name: 'userId', type: 'integer', isPrimary: true },
          { name: 'dismissedThroughId', type: 'integer', default: 0 },
          { name: 'updatedAt', type: date, default: now },
        ],
        foreignKeys: [foreignKey('userId', 'users')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['notification_watermarks', 'notification_receipts', 'notifications']);
    for (const t of ['notification_watermarks', 'notification_receipts', 'notifications']) await q.dropTable(t);
  }
}
