import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Passkeys: registered WebAuthn credentials, outstanding challenges, and the user's flag. */
export class Passkeys1764200000000 implements MigrationInterface {
  name = 'Passkeys1764200000000';

  async up(q: QueryRunner): Promise<void> {
    const { postgres, date, id, createdAt } = portable(q);
    // A plain ADD COLUMN on both (TypeORM's addColumn would rebuild the SQLite table, cascading its foreign keys).
    await q.query(`ALTER TABLE "users" ADD COLUMN "hasPasskey" boolean NOT NULL DEFAULT ${postgres ? 'false' : '0'}`);
    await q.createTable(
      new Table({
        name: 'passkeys',
        columns: [
          id,
          { name: 'userId', type: 'integer' },
          { name: 'credentialId', type: 'varchar', length: '1400', isUnique: true },
          { name: 'publicKey', type: 'text' },
          { name: 'counter', type: 'bigint', default: 0 },
          { name: 'transports', type: 'varchar', length: '200', default: "'[]'" },
          { name: 'name', type: 'varchar', length: '50' },
          { name: 'deviceType', type: 'varchar', length: '20' },
          { name: 'backedUp', type: 'boolean', default: false },
          createdAt,
          { name: 'lastUsedAt', type: date, isNullable: true },
        ],
        foreignKeys: [foreignKey('userId', 'users')],
        indices: [{ name: 'IDX_passkeys_user', columnNames: ['userId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'webauthn_challenges',
        columns: [
          { name: 'challenge', type: 'varchar', length: '100', isPrimary: true },
          { name: 'purpose', type: 'varchar', length: '20' },
          { name: 'userId', type: 'integer', isNullable: true },
          { name: 'expiresAt', type: date },
        ],
        indices: [{ name: 'IDX_webauthn_challenges_expires', columnNames: ['expiresAt'] }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['passkeys']);
    await q.dropTable('webauthn_challenges');
    await q.dropTable('passkeys');
    await q.query('ALTER TABLE "users" DROP COLUMN "hasPasskey"');
  }
}
