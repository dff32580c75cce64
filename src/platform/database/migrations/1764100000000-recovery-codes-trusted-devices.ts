import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';

/** Single-use recovery codes and trusted devices, both owned by a user and gone with them. */
export class RecoveryCodesTrustedDevices1764100000000 implements MigrationInterface {
  name = 'RecoveryCodesTrustedDevices1764100000000';

  async up(q: QueryRunner): Promise<void> {
    const postgres = q.connection.driver.options.type === 'postgres';
    const DATE_TYPE = postgres ? 'timestamptz' : 'datetime';
    const now = postgres ? 'now()' : "datetime('now')";
    const owner = () => ({
      columnNames: ['userId'],
      referencedTableName: 'users',
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    });
    await q.createTable(
      new Table({
        name: 'mfa_recovery_codes',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'userId', type: 'integer' },
          { name: 'codeHash', type: 'varchar', length: '64' },
          { name: 'usedAt', type: DATE_TYPE, isNullable: true },
          { name: 'createdAt', type: DATE_TYPE, default: now },
        ],
        foreignKeys: [owner()],
        indices: [new TableIndex({ name: 'IDX_mfa_recovery_codes_user', columnNames: ['userId', 'usedAt'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'mfa_trusted_devices',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'userId', type: 'integer' },
          { name: 'tokenHash', type: 'varchar', length: '64' },
          { name: 'label', type: 'varchar', length: '100' },
          { name: 'createdAt', type: DATE_TYPE, default: now },
          { name: 'lastUsedAt', type: DATE_TYPE, isNullable: true },
          { name: 'expiresAt', type: DATE_TYPE },
        ],
        foreignKeys: [owner()],
        indices: [
          new TableIndex({ name: 'IDX_mfa_trusted_devices_user', columnNames: ['userId'] }),
          new TableIndex({ name: 'UQ_mfa_trusted_devices_token', columnNames: ['tokenHash'], isUnique: true }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['mfa_trusted_devices', 'mfa_recovery_codes']);
    await q.dropTable('mfa_trusted_devices');
    await q.dropTable('mfa_recovery_codes');
  }
}
