import { MigrationInterface, QueryRunner } from 'typeorm';
import { rebuildUserSearchIndexes } from '../sqlite/user-search-indexes';

/**
 * The user list's SQLite text indexes (`users_search`, `users_search_short`) made again in SQL that SQLite 3.37 and
 * later read. Earlier releases made them with FTS5 `contentless_delete` (SQLite 3.43) and `group_concat(… ORDER BY …)`
 * in the short index's triggers (3.44), which no older SQLite can parse: the distributions' sqlite3 shell (3.40 on
 * Debian 12) then answered every command on the file, `.dump` included, with "malformed database schema".
 * Both are dropped and filled again from `users` (sqlite/user-search-indexes.ts); a database whose earlier
 * migrations already made the readable form gets the same form again.
 *
 * down() keeps this form: the earlier releases' code reads the same tables, columns and rowids, and their schema
 * would again be unreadable by those shells.
 *
 * PostgreSQL: nothing here.
 */
export class UserSearchOlderSqlite1766500000000 implements MigrationInterface {
  name = 'UserSearchOlderSqlite1766500000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') return;
    await rebuildUserSearchIndexes(q);
  }

  async down(): Promise<void> {}
}
