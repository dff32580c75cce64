import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const LIST_COLUMNS = ['organisationId', 'lastName', 'firstName', 'email'];
const FILTER_COLUMNS = ['roleId', 'isAdministrator', 'isDisabled', 'isBlocked'];

/**
 * The user list's index holds the user's id. PostgreSQL's index entries point at table rows, not ids
 * (SQLite's carry the rowid already), so every page, the cached list order and the top of the list read for a text
 * search visited the table for each entry. And IDX_users_org_name (organisation, last name, first name), a prefix of
 * the list's index, is dropped: PostgreSQL planned the first page through it and sorted the organisation's rows by e-mail
 * for it, many times slower than IDX_users_org_search with the id (docs/decisions/).
 *
 * The id comes after the e-mail, which is unique: the order of the entries is unchanged.
 */
export class UserListIndex1764500000000 implements MigrationInterface {
  name = 'UserListIndex1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.dropIndex('users', 'IDX_users_org_name');
    await q.dropIndex('users', 'IDX_users_org_search');
    await q.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_org_search', columnNames: [...LIST_COLUMNS, 'id', ...FILTER_COLUMNS] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('users', 'IDX_users_org_search');
    await q.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_org_search', columnNames: [...LIST_COLUMNS, ...FILTER_COLUMNS] }),
    );
    await q.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_org_name', columnNames: ['organisationId', 'lastName', 'firstName'] }),
    );
  }
}
