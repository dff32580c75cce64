import { MigrationInterface, QueryRunner } from 'typeorm';
import { createUsersSearch, dropUsersSearch } from '../sqlite/user-search-indexes';

/**
 * The user list's text search without a scan. The search matches a substring of
 * "firstName lastName" or of the e-mail, case-insensitively.
 *
 * SQLite: a contentless FTS5 table with the trigram tokenizer (case-insensitive by default) whose
 * rowid is the user's id, kept in step with `users` by triggers (sqlite/user-search-indexes.ts). A quoted phrase
 * of three or more characters matches exactly the rows whose text contains it.
 *
 * PostgreSQL: pg_trgm GIN indexes on the same two expressions, which ILIKE '%…%' uses.
 */
export class UserSearch1763836000000 implements MigrationInterface {
  name = 'UserSearch1763836000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') {
      await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await q.query(
        `CREATE INDEX "IDX_users_name_trgm" ON "users" USING gin (("firstName" || ' ' || "lastName") gin_trgm_ops)`,
      );
      await q.query(`CREATE INDEX "IDX_users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops)`);
      return;
    }
    await createUsersSearch(q);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') {
      await q.query('DROP INDEX "IDX_users_email_trgm"');
      await q.query('DROP INDEX "IDX_users_name_trgm"');
      return;
    }
    await dropUsersSearch(q);
  }
}
