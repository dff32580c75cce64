import { MigrationInterface, QueryRunner } from 'typeorm';

/** Characters of a name or an e-mail the short-text index covers (the forms allow 201 and 100). */
export const SHORT_SEARCH_MAX_CHARS = 512;

/**
 * The user list's search for texts of 1 and 2 characters without a scan, SQLite only: the trigram
 * table of UserSearch finds nothing shorter than 3 characters, so 1-2 characters read every row of the
 * organisation through LIKE.
 *
 * `users_search_short` is a second contentless FTS5 trigram table (rowid = user id) whose one column spells the
 * name and the e-mail each as \x01 c1 \x01 c2 \x01 … cn \x01. Its trigrams are "\x01 c \x01" (the text holds the
 * character c) and "c1 \x01 c2" (it holds c1 c2), so a 1- or 2-character text is one trigram token, looked up
 * case-insensitively like the 3+ character search. Between the name and the e-mail, "\x01\x01" joins no pair.
 * detail=none: a single-token query needs no positions, which keeps the table at about a third of the other.
 * Triggers keep it in step with `users`; `search_positions` (1..SHORT_SEARCH_MAX_CHARS) spells the text
 * (common table expressions are not allowed inside triggers).
 *
 * PostgreSQL: nothing here (pg_trgm cannot serve 1-2 characters either: UserSearchGrams indexes them there).
 */
export class UserSearchShort1764300000000 implements MigrationInterface {
  name = 'UserSearchShort1764300000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') return;
    await q.query(`CREATE TABLE "search_positions" ("n" integer PRIMARY KEY)`);
    await q.query(
      `WITH RECURSIVE "c"("n") AS (SELECT 1 UNION ALL SELECT "n" + 1 FROM "c" WHERE "n" < ${SHORT_SEARCH_MAX_CHARS})
       INSERT INTO "search_positions" ("n") SELECT "n" FROM "c"`,
    );
    await q.query(
      `CREATE VIRTUAL TABLE "users_search_short" USING fts5(grams, content='', contentless_delete=1, detail=none, tokenize='trigram')`,
    );
    const spelled = (text: string) =>
      `(SELECT char(1) || group_concat(substr(${text}, "p"."n", 1) || char(1), '' ORDER BY "p"."n") FROM "search_positions" "p" WHERE "p"."n" <= length(${text}))`;
    const grams = (row: string) =>
      `coalesce(${spelled(`${row}."firstName" || ' ' || ${row}."lastName"`)}, '') || coalesce(${spelled(`${row}."email"`)}, '')`;
    await q.query(`INSERT INTO "users_search_short" (rowid, grams) SELECT "u"."id", ${grams('"u"')} FROM "users" "u"`);
    await q.query(`CREATE TRIGGER "users_search_short_insert" AFTER INSERT ON "users" BEGIN
      INSERT INTO "users_search_short" (rowid, grams) VALUES (new."id", ${grams('new')}); END`);
    await q.query(`CREATE TRIGGER "users_search_short_delete" AFTER DELETE ON "users" BEGIN
      DELETE FROM "users_search_short" WHERE rowid = old."id"; END`);
    await q.query(`CREATE TRIGGER "users_search_short_update" AFTER UPDATE OF "firstName", "lastName", "email" ON "users" BEGIN
      DELETE FROM "users_search_short" WHERE rowid = old."id";
      INSERT INTO "users_search_short" (rowid, grams) VALUES (new."id", ${grams('new')}); END`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') return;
    await q.query('DROP TRIGGER "users_search_short_update"');
    await q.query('DROP TRIGGER "users_search_short_delete"');
    await q.query('DROP TRIGGER "users_search_short_insert"');
    await q.query('DROP TABLE "users_search_short"');
    await q.query('DROP TABLE "search_positions"');
  }
}
