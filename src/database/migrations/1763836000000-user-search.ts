import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The user list's text search without a scan. The search matches a substring of
 * "firstName lastName" or of the e-mail, case-insensitively.
 *
 * SQLite: a contentless FTS5 table with the trigram tokenizer (case-insensitive by default) whose
 * rowid is the user's id, kept in step with `users` by triggers. A quoted phrase of three or more
 * characters matches exactly the rows whose text contains it.
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
    const row = `new."id", new."firstName" || ' ' || new."lastName", new."email"`;
    await q.query(
      `CREATE VIRTUAL TABLE "users_search" USING fts5(name, email, content='', contentless_delete=1, tokenize='trigram')`,
    );
    await q.query(
      `INSERT INTO "users_search" (rowid, name, email) SELECT "id", "firstName" || ' ' || "lastName", "email" FROM "users"`,
    );
    await q.query(`CREATE TRIGGER "users_search_insert" AFTER INSERT ON "users" BEGIN
      INSERT INTO "users_search" (rowid, name, email) VALUES (${row}); END`);
    await q.query(`CREATE TRIGGER "users_search_delete" AFTER DELETE ON "users" BEGIN
      DELETE FROM "users_search" WHERE rowid = old."id"; END`);
    await q.query(`CREATE TRIGGER "users_search_update" AFTER UPDATE OF "firstName", "lastName", "email" ON "users" BEGIN
      DELETE FROM "users_search" WHERE rowid = old."id";
      INSERT INTO "users_search" (rowid, name, email) VALUES (${row}); END`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') {
      await q.query('DROP INDEX "IDX_users_email_trgm"');
      await q.query('DROP INDEX "IDX_users_name_trgm"');
      return;
    }
    await q.query('DROP TRIGGER "users_search_update"');
    await q.query('DROP TRIGGER "users_search_delete"');
    await q.query('DROP TRIGGER "users_search_insert"');
    await q.query('DROP TABLE "users_search"');
  }
}
