import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

const TABLES = [
  'not_me_links',
  'new_browser_mail',
  'known_browsers',
  'sign_in_history',
  'insights_failures',
  'insights_daily',
];

/**
 * The insights' counts, kept as sign-ins are audited (docs/decisions/insights-counters.md): a row per organisation
 * and day, a row per failure reason and day; each account's sign-ins for its security page; the browsers it has
 * used, when it was last told of a new one, and the one-time "This wasn't me" links.
 */
export class Insights1765420000000 implements MigrationInterface {
  name = 'Insights1765420000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id } = portable(q);
    const count = (name: string) => ({ name, type: 'integer', default: 0 });
    // The counts name their organisation without a foreign key: on PostgreSQL a key's check takes a share lock on the
    // organisation's row, which a failed sign-in's first count of the day would wait for while a successful sign-in
    // holds that row (the concurrent-users limit) and waits for the count's row: a deadlock.
    const owner = foreignKey('userId', 'users');
    await q.createTable(
      new Table({
        name: 'insights_daily',
        columns: [
          { name: 'organisationId', type: 'integer', isPrimary: true },
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          count('succeededPassword'),
          count('succeededPasskey'),
          count('succeededSso'),
          count('failedPassword'),
          count('failedPasskey'),
          count('failedSso'),
          count('peakConcurrent'),
          { name: 'mfaEnrolled', type: 'integer', isNullable: true },
          { name: 'mfaTotal', type: 'integer', isNullable: true },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'insights_failures',
        columns: [
          { name: 'organisationId', type: 'integer', isPrimary: true },
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          { name: 'reason', type: 'varchar', length: '40', isPrimary: true },
          count('n'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sign_in_history',
        columns: [
          id,
          { name: 'userId', type: 'integer' },
          { name: 'at', type: date },
          { name: 'outcome', type: 'varchar', length: '10' },
          { name: 'method', type: 'varchar', length: '10', isNullable: true },
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          { name: 'userAgent', type: 'varchar', length: '300', isNullable: true },
          { name: 'newDevice', type: 'boolean', default: false },
        ],
        foreignKeys: [owner],
        indices: [new TableIndex({ name: 'IDX_sign_in_history_user_at', columnNames: ['userId', 'at', 'id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'known_browsers',
        columns: [
          { name: 'userId', type: 'integer', isPrimary: true },
          { name: 'browserHash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'firstSeenAt', type: date },
          { name: 'lastSeenAt', type: date },
        ],
        foreignKeys: [owner],
      }),
    );
    await q.createTable(
      new Table({
        name: 'new_browser_mail',
        columns: [
          { name: 'userId', type: 'integer', isPrimary: true },
          { name: 'sentAt', type: date },
          { name: 'nonce', type: 'varchar', length: '64' },
        ],
        foreignKeys: [owner],
      }),
    );
    await q.createTable(
      new Table({
        name: 'not_me_links',
        columns: [
          id,
          { name: 'userId', type: 'integer' },
          { name: 'tokenHash', type: 'varchar', length: '64' },
          { name: 'expiresAt', type: date },
          { name: 'usedAt', type: date, isNullable: true },
        ],
        foreignKeys: [owner],
        indices: [new TableIndex({ name: 'UQ_not_me_links_token', columnNames: ['tokenHash'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, TABLES);
    for (const table of TABLES) await q.dropTable(table);
  }
}
