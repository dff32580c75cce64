import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/**
 * User administration: indexes for the user list's filters, and user groups with their members.
 * Portable: SQLite and PostgreSQL.
 */
export class UserAdministration1763790000000 implements MigrationInterface {
  name = 'UserAdministration1763790000000';

  async up(q: QueryRunner): Promise<void> {
    const { id, createdAt } = portable(q);

    // The list: every filter column beside the sort order (last name, first name, e-mail), so that the page walks
    // this index in order and the total is counted from the index alone, without reading the table.
    await q.createIndex(
      'users',
      new TableIndex({
        name: 'IDX_users_org_search',
        columnNames: [
          'organisationId',
          'lastName',
          'firstName',
          'email',
          'roleId',
          'isAdministrator',
          'isDisabled',
          'isBlocked',
        ],
      }),
    );
    // Role and access filters without text, and the count of active users.
    await q.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_org_role', columnNames: ['organisationId', 'roleId'] }),
    );
    await q.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_org_access', columnNames: ['organisationId', 'isDisabled', 'isBlocked'] }),
    );

    await q.createTable(
      new Table({
        name: 'user_groups',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'nameKey', type: 'varchar', length: '100' },
          createdAt,
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
      }),
    );
    await q.createIndex(
      'user_groups',
      new TableIndex({ name: 'IDX_user_groups_org_name', columnNames: ['organisationId', 'nameKey'], isUnique: true }),
    );

    await q.createTable(
      new Table({
        name: 'user_group_members',
        columns: [
          { name: 'groupId', type: 'integer', isPrimary: true },
          { name: 'userId', type: 'integer', isPrimary: true },
          createdAt,
        ],
        foreignKeys: [foreignKey('groupId', 'user_groups'), foreignKey('userId', 'users')],
      }),
    );
    await q.createIndex(
      'user_group_members',
      new TableIndex({ name: 'IDX_user_group_members_user', columnNames: ['userId'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['user_group_members', 'user_groups']);
    await q.dropTable('user_group_members');
    await q.dropTable('user_groups');
    await q.dropIndex('users', 'IDX_users_org_access');
    await q.dropIndex('users', 'IDX_users_org_role');
    await q.dropIndex('users', 'IDX_users_org_search');
  }
}
