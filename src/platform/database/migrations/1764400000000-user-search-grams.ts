import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The user list's search for texts of 1 and 2 characters on PostgreSQL without reading the organisation:
 * pg_trgm's indexes cannot serve them, so ILIKE read every row.
 *
 * `user_search_grams(name, email)` is the set of every 1- and 2-character substring of the lower-cased name
 * ("first last") and e-mail, each string on its own (no pair spans the two); a GIN index on it answers
 * `… @> ARRAY[lower(text)]` with exactly the users whose name or e-mail holds the text, case-insensitively as
 * ILIKE (both fold with lower()). It is about as large as
 * pg_trgm's indexes. Its high COST keeps the planner from calling it row by row instead of using the index, even for a
 * text most users hold under a LIMIT (at the default cost it did); the queries that use it turn
 * JIT off, which that cost would otherwise set off (compiling a query costs more than running it).
 *
 * SQLite: nothing here (UserSearchShort's table serves it).
 */
export class UserSearchGrams1764400000000 implements MigrationInterface {
  name = 'UserSearchGrams1764400000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'postgres') return;
    await q.query(`CREATE FUNCTION "user_search_grams"("name" text, "email" text) RETURNS text[]
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 10000 AS $$
        SELECT coalesce(array_agg(DISTINCT substr("s", "i", "n")), '{}')
        FROM unnest(ARRAY[lower("name"), lower("email")]) AS "s", generate_series(1, 2) AS "n",
          generate_series(1, length("s") - "n" + 1) AS "i"
      $$`);
    await q.query(
      `CREATE INDEX "IDX_users_search_grams" ON "users" USING gin ("user_search_grams"("firstName" || ' ' || "lastName", "email"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'postgres') return;
    await q.query('DROP INDEX "IDX_users_search_grams"');
    await q.query('DROP FUNCTION "user_search_grams"(text, text)');
  }
}
