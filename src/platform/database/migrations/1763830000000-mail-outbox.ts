import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable } from '../migration-shapes';

/** The mail outbox: messages (and tasks that may end in one) stored before the request is answered, handled in the background. */
export class MailOutbox1763830000000 implements MigrationInterface {
  name = 'MailOutbox1763830000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id, createdAt } = portable(q);
    await q.createTable(
      new Table({
        name: 'mail_outbox',
        columns: [
          id,
          { name: 'kind', type: 'varchar', length: '40', default: "'mail'" },
          { name: 'payload', type: 'text', isNullable: true },
          { name: 'to', type: 'varchar', length: '320' },
          { name: 'replyTo', type: 'varchar', length: '320', isNullable: true },
          { name: 'subject', type: 'varchar', length: '500' },
          { name: 'text', type: 'text' },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'nextAttemptAt', type: date },
          { name: 'claimedUntil', type: date, isNullable: true },
          { name: 'sentAt', type: date, isNullable: true },
          { name: 'lastError', type: 'varchar', length: '500', isNullable: true },
          createdAt,
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
