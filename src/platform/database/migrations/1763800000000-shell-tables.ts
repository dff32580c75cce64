import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Announcements and their dismissals, user feedback and system information. Portable: SQLite and PostgreSQL. */
export class ShellTables1763800000000 implements MigrationInterface {
  name = 'ShellTables1763800000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, now, id, createdAt } = portable(q);

    await q.createTable(
      new Table({
        name: 'announcements',
        columns: [
          id,
          { name: 'title', type: 'varchar', length: '200' },
          { name: 'content', type: 'text' },
          { name: 'organisationId', type: 'integer', isNullable: true },
          { name: 'createdById', type: 'integer' },
          createdAt,
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
      }),
    );
    await q.createIndex(
      'announcements',
      new TableIndex({ name: 'IDX_announcements_org', columnNames: ['organisationId'] }),
    );

    await q.createTable(
      new Table({
        name: 'announcement_dismissals',
        columns: [id, { name: 'announcementId', type: 'integer' }, { name: 'userId', type: 'integer' }, createdAt],
        foreignKeys: [foreignKey('announcementId', 'announcements'), foreignKey('userId', 'users')],
      }),
    );
    await q.createIndex(
      'announcement_dismissals',
      new TableIndex({
        name: 'IDX_announcement_dismissals_unique',
        columnNames: ['announcementId', 'userId'],
        isUnique: true,
      }),
    );

    await q.createTable(
      new Table({
        name: 'user_feedback',
        columns: [
          id,
          { name: 'title', type: 'varchar', length: '200' },
          { name: 'content', type: 'text' },
          { name: 'userId', type: 'integer' },
          { name: 'organisationId', type: 'integer' },
          createdAt,
        ],
        foreignKeys: [foreignKey('userId', 'users')],
      }),
    );
    await q.createIndex('user_feedback', new TableIndex({ name: 'IDX_user_feedback_user', columnNames: ['userId'] }));

    await q.createTable(
      new Table({
        name: 'system_information',
        columns: [
          id,
          { name: 'eventType', type: 'varchar', length: '50' },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'version', type: 'varchar', length: '100', default: "''" },
          { name: 'message', type: 'varchar', length: '2000', default: "''" },
          { name: 'startDateTime', type: date },
          { name: 'modified', type: date, default: now },
        ],
      }),
    );
    await q.createIndex(
      'system_information',
      new TableIndex({ name: 'IDX_system_information_type_start', columnNames: ['eventType', 'startDateTime'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, [
      'system_information',
      'user_feedback',
      'announcement_dismissals',
      'announcements',
    ]);
    await q.dropTable('system_information');
    await q.dropTable('user_feedback');
    await q.dropTable('announcement_dismissals');
    await q.dropTable('announcements');
  }
}
