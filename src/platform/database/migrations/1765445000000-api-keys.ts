import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';

/** Organisation API keys (docs/api-keys.md): stored as the SHA-256 of the key, found by its unique index. */
export class ApiKeys1765445000000 implements MigrationInterface {
  name = 'ApiKeys1765445000000';

  async up(q: QueryRunner): Promise<void> {
    const postgres = q.connection.driver.options.type === 'postgres';
    const date = postgres ? 'timestamptz' : 'datetime';
    await q.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'organisationId', type: 'integer' },
          { name: 'name', type: 'varchar', length: '50' },
          { name: 'prefix', type: 'varchar', length: '20' },
          { name: 'keyHash', type: 'varchar', length: '64' },
          { name: 'scopes', type: 'varchar', length: '200' },
          { name: 'createdAt', type: date, default: postgres ? 'now()' : "datetime('now')" },
          { name: 'createdBy', type: 'varchar', length: '100', isNullable: true },
          { name: 'expiresAt', type: date, isNullable: true },
          { name: 'lastUsedAt', type: date, isNullable: true },
        ],
        foreignKeys: [
          {
            columnNames: ['organisationId'],
            referencedTableName: 'organisations',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
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
