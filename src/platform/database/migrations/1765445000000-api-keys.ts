import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Organisation API keys (docs/api-keys.md): stored as the SHA-256 of the key, found by its unique index. */
export class ApiKeys1765445000000 implements MigrationInterface {
  name = 'ApiKeys1765445000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id, createdAt } = portable(q);
    await q.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'name', type: 'varchar', length: '50' },
          { name: 'prefix', type: 'varchar', length: '20' },
          { name: 'keyHash', type: 'varchar', length: '64' },
          { name: 'scopes', type: 'varchar', length: '200' },
          createdAt,
          { name: 'createdBy', type: 'varchar', length: '100', isNullable: true },
          { name: 'expiresAt', type: date, isNullable: true },
          { name: 'lastUsedAt', type: date, isNullable: true },
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
        indices: [
          { name: 'IDX_api_keys_org', columnNames: ['organisationId'] },
          { name: 'IDX_api_keys_hash', columnNames: ['keyHash'], isUnique: true },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['api_keys'], []);
    await q.dropTable('api_keys');
  }
}
