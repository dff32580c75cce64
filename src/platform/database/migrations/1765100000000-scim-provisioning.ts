import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/**
 * Directory provisioning (SCIM 2.0): the organisations' provisioning tokens (hashed), and the directory's own columns
 * on users and user groups: its id for the record (`externalId`) and whether it manages the row (`managedBy`), and
 * the userName as the directory spells it.
 */
export class ScimProvisioning1765100000000 implements MigrationInterface {
  name = 'ScimProvisioning1765100000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id, createdAt } = portable(q);
    await q.createTable(
      new Table({
        name: 'scim_tokens',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'name', type: 'varchar', length: '50' },
          { name: 'tokenHash', type: 'varchar', length: '64' },
          createdAt,
          { name: 'createdBy', type: 'varchar', length: '100', isNullable: true },
          { name: 'lastUsedAt', type: date, isNullable: true },
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
        indices: [
          { name: 'IDX_scim_tokens_org', columnNames: ['organisationId'] },
          { name: 'IDX_scim_tokens_hash', columnNames: ['tokenHash'], isUnique: true },
        ],
      }),
    );
    // Plain ADD COLUMNs (TypeORM's addColumn would rebuild the SQLite table, cascading its foreign keys).
    for (const table of ['users', 'user_groups']) {
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "externalId" varchar(200)`);
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "managedBy" varchar(20)`);
    }
    // The userName as the directory spells it (e-mails are kept lower-cased): answered back to it unchanged.
    await q.query(`ALTER TABLE "users" ADD COLUMN "directoryUserName" varchar(100)`);
    await q.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_org_external', columnNames: ['organisationId', 'externalId'] }),
    );
    await q.createIndex(
      'user_groups',
      new TableIndex({ name: 'IDX_user_groups_org_external', columnNames: ['organisationId', 'externalId'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(
      q,
      this.name,
      ['scim_tokens'],
      [
        ['users', 'directoryUserName'],
        ['users', 'externalId'],
        ['user_groups', 'externalId'],
      ],
    );
    await q.dropIndex('user_groups', 'IDX_user_groups_org_external');
    await q.dropIndex('users', 'IDX_users_org_external');
    await q.query('ALTER TABLE "users" DROP COLUMN "directoryUserName"');
    for (const table of ['users', 'user_groups']) {
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "managedBy"`);
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "externalId"`);
    }
    await q.dropTable('scim_tokens');
  }
}
