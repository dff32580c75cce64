import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Single-use recovery codes and trusted devices, both owned by a user and gone with them. */
export class RecoveryCodesTrustedDevices1764100000000 implements MigrationInterface {
  name = 'RecoveryCodesTrustedDevices1764100000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id, createdAt } = portable(q);
    const owner = () => foreignKey('userId', 'users');
    await q.createTable(
      new Table({
        name: 'mfa_recovery_codes',
        columns: [
          id,
          { name: 'userId', type: 'integer' },
          { name: 'codeHash', type: 'varchar', length: '64' },
          { name: 'usedAt', type: date, isNullable: true },
          createdAt,
        ],
        foreignKeys: [owner()],
        indices: [new TableIndex({ name: 'IDX_mfa_recovery_codes_user', columnNames: ['userId', 'usedAt'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'mfa_trusted_devices',
        columns: [
          id,
          { name: 'userId', type: 'integer' },
          { name: 'tokenHash', type: 'varchar', length: '64' },
          { name: 'label', type: 'varchar', length: '100' },
          createdAt,
          { name: 'lastUsedAt', type: date, isNullable: true },
          { name: 'expiresAt', type: date },
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
