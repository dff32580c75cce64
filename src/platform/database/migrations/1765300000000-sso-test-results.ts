import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { portable, foreignKey } from '../migration-shapes';

/** The outcome of an administrator's test sign-in through a connection, kept briefly for that administrator. */
export class SsoTestResults1765300000000 implements MigrationInterface {
  name = 'SsoTestResults1765300000000';

  async up(q: QueryRunner): Promise<void> {
    const { date } = portable(q);
    await q.createTable(
      new Table({
        name: 'sso_test_results',
        columns: [
          { name: 'key', type: 'varchar', length: '64', isPrimary: true },
          { name: 'connectionId', type: 'integer' },
          { name: 'userId', type: 'integer' },
          { name: 'result', type: 'text' },
          { name: 'expiresAt', type: date },
        ],
        foreignKeys: [foreignKey('connectionId', 'sso_connections'), foreignKey('userId', 'users')],
        indices: [{ name: 'IDX_sso_test_results_expires', columnNames: ['expiresAt'] }],
      }),
    );
  }

  /** Test results are kept for minutes only: nothing of value is lost by dropping them. */
  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('sso_test_results');
  }
}
