import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';

/** The mail outbox: messages (and tasks that may end in one) stored before the request is answered, handled in the background. */
export class MailOutbox1763830000000 implements MigrationInterface {
  name = 'MailOutbox1763830000000';

  async up(q: QueryRunner): Promise<void> {
    const postgres = q.connection.driver.options.type === 'postgres';
    const now = postgres ? 'now()' : "datetime('now')";
    const DATE_TYPE = postgres ? 'timestamptz' : 'datetime';
    await q.createTable(
      new Table({
        name: 'mail_outbox',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'kind', type: 'varchar', length: '40', default: "'mail'" },
          { name: 'payload', type: 'text', isNullable: true },
          { name: 'to', type: 'varchar', length: '320' },
          { name: 'replyTo', type: 'varchar', length: '320', isNullable: true },
          { name: 'subject', type: 'varchar', length: '500' },
          { name: 'text', type: 'text' },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'nextAttemptAt', type: DATE_TYPE },
          { name: 'claimedUntil', type: DATE_TYPE, isNullable: true },
          { name: 'sentAt', type: DATE_TYPE, isNullable: true },
          { name: 'lastError', type: 'varchar', length: '500', isNullable: true },
          { name: 'createdAt', type: DATE_TYPE, default: now },
        ],
      }),
    );
    await q.createIndex(
      'mail_outbox',
      new TableIndex({ name: 'IDX_mail_outbox_pending', columnNames: ['sentAt', 'nextAttemptAt'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['mail_outbox']);
    await q.dropTable('mail_outbox');
  }
}
