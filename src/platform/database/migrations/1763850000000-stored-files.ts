import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable } from '../migration-shapes';

/** Files every instance serves (logos, reports), kept in the shared database. */
export class StoredFiles1763850000000 implements MigrationInterface {
  name = 'StoredFiles1763850000000';

  async up(q: QueryRunner): Promise<void> {
    const { postgres, createdAt } = portable(q);
    await q.createTable(
      new Table({
        name: 'stored_files',
        columns: [
          { name: 'key', type: 'varchar', length: '300', isPrimary: true },
          { name: 'contentType', type: 'varchar', length: '100' },
          { name: 'size', type: 'integer' },
          { name: 'data', type: postgres ? 'bytea' : 'blob' },
          createdAt,
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['stored_files']);
    await q.dropTable('stored_files');
  }
}
