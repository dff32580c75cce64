import { QueryRunner } from 'typeorm';

/**
 * The user list's two SQLite text indexes, in SQL that SQLite 3.37 reads: the schema holds their tables and
 * triggers, and every tool that opens the file parses them (the distributions' sqlite3 shell, 3.37 on Ubuntu 22.04
 * and 3.40 on Debian 12, DB browsers, `.dump`), not only the SQLite the sqlite3 module bundles. So no FTS5
 * `contentless_delete` (3.43) and no `ORDER BY` inside an aggregate call (3.44): see
 * docs/decisions/sqlite-schema-for-older-shells.md.
 *
 * Both are contentless FTS5 tables (`content=''`: the index alone, no copy of the text) whose rowid is the user's
 * id. A contentless table forgets an entry only through FTS5's 'delete' command given the very text the entry was
 * made of, so the triggers compute the old text from `old` exactly as the insert computed it from `new`. The text
 * is a function of the row alone (and of `search_positions`, which never changes): the two always agree.
 */

/** Characters of a name or an e-mail the short-text index covers (the forms allow 201 and 100). */
export const SHORT_SEARCH_MAX_CHARS = 512;

/** The name as both indexes and the list's LIKE read it: "first last". */
const fullName = (row: string) => `${row}."firstName" || ' ' || ${row}."lastName"`;

/**
 * `users_search`: the trigram index (case-insensitive) of the name and the e-mail. A quoted phrase of three or more
 * characters matches exactly the rows whose text contains it.
 */
const USERS_SEARCH = {
  table: 'users_search',
  create: `CREATE VIRTUAL TABLE "users_search" USING fts5(name, email, content='', tokenize='trigram')`,
  columns: 'name, email',
  values: (row: string) => `${fullName(row)}, ${row}."email"`,
};

/**
 * The text spelled for the short-text index: \x01 c1 \x01 c2 \x01 … cn \x01, at most SHORT_SEARCH_MAX_CHARS
 * characters; NULL for an empty text. The characters are concatenated in the order of an ordered subquery (an
 * aggregate over a FROM subquery with ORDER BY reads its rows in that order: SQLite keeps that ORDER BY for any
 * aggregate but count(), min() and max()). Common table expressions are not allowed inside triggers, hence
 * `search_positions` (1..SHORT_SEARCH_MAX_CHARS).
 */
const spelled = (text: string) =>
  `(SELECT char(1) || group_concat("s"."c", '') FROM (SELECT substr(${text}, "p"."n", 1) || char(1) AS "c" ` +
  `FROM "search_positions" "p" WHERE "p"."n" <= length(${text}) ORDER BY "p"."n") "s")`;

/**
 * `users_search_short`: the search for texts of 1 and 2 characters without a scan (the trigram index finds nothing
 * shorter than 3 characters, so 1-2 characters read every row of the organisation through LIKE).
 *
 * Its one column spells the name and the e-mail each as \x01 c1 \x01 c2 \x01 … cn \x01. Its trigrams are "\x01 c \x01"
 * (the text holds the character c) and "c1 \x01 c2" (it holds c1 c2), so a 1- or 2-character text is one trigram
 * token, looked up case-insensitively like the 3+ character search. Between the name and the e-mail, "\x01\x01" joins
 * no pair. detail=none: a single-token query needs no positions, which keeps the table at about a third of the other.
 */
const USERS_SEARCH_SHORT = {
  table: 'users_search_short',
  create: `CREATE VIRTUAL TABLE "users_search_short" USING fts5(grams, content='', detail=none, tokenize='trigram')`,
  columns: 'grams',
  values: (row: string) => `coalesce(${spelled(fullName(row))}, '') || coalesce(${spelled(`${row}."email"`)}, '')`,
};

type SearchIndex = typeof USERS_SEARCH;

/** The index's table, filled from `users`, and the triggers that keep it in step with them. */
async function createIndex(q: QueryRunner, index: SearchIndex): Promise<void> {
  const { table, columns, values } = index;
  await q.query(index.create);
  await q.query(`INSERT INTO "${table}" (rowid, ${columns}) SELECT "u"."id", ${values('"u"')} FROM "users" "u"`);
  const insert = `INSERT INTO "${table}" (rowid, ${columns}) VALUES (new."id", ${values('new')});`;
  const forget = `INSERT INTO "${table}" ("${table}", rowid, ${columns}) VALUES ('delete', old."id", ${values('old')});`;
  await q.query(`CREATE TRIGGER "${table}_insert" AFTER INSERT ON "users" BEGIN
      ${insert} END`);
  await q.query(`CREATE TRIGGER "${table}_delete" AFTER DELETE ON "users" BEGIN
      ${forget} END`);
  await q.query(`CREATE TRIGGER "${table}_update" AFTER UPDATE OF "firstName", "lastName", "email" ON "users" BEGIN
      ${forget}
      ${insert} END`);
}

/** The index's triggers and table, as createIndex or an earlier release made them. */
async function dropIndex(q: QueryRunner, { table }: SearchIndex): Promise<void> {
  for (const trigger of ['update', 'delete', 'insert']) await q.query(`DROP TRIGGER IF EXISTS "${table}_${trigger}"`);
  await q.query(`DROP TABLE IF EXISTS "${table}"`);
}

/** `users_search` with its triggers, filled from `users`. */
export function createUsersSearch(q: QueryRunner): Promise<void> {
  return createIndex(q, USERS_SEARCH);
}

/** `search_positions` and `users_search_short` with its triggers, filled from `users`. */
export async function createUsersSearchShort(q: QueryRunner): Promise<void> {
  await q.query(`CREATE TABLE "search_positions" ("n" integer PRIMARY KEY)`);
  await q.query(
    `WITH RECURSIVE "c"("n") AS (SELECT 1 UNION ALL SELECT "n" + 1 FROM "c" WHERE "n" < ${SHORT_SEARCH_MAX_CHARS})
     INSERT INTO "search_positions" ("n") SELECT "n" FROM "c"`,
  );
  await createIndex(q, USERS_SEARCH_SHORT);
}

export function dropUsersSearch(q: QueryRunner): Promise<void> {
  return dropIndex(q, USERS_SEARCH);
}

export async function dropUsersSearchShort(q: QueryRunner): Promise<void> {
  await dropIndex(q, USERS_SEARCH_SHORT);
  await q.query('DROP TABLE IF EXISTS "search_positions"');
}

/**
 * Both indexes dropped, whatever form they have (an earlier release made them with SQL that only SQLite 3.43+
 * reads: FTS5 `contentless_delete`, and `group_concat(… ORDER BY …)` in the short index's triggers), and made again
 * in the form above from `users`.
 */
export async function rebuildUserSearchIndexes(q: QueryRunner): Promise<void> {
  await dropUsersSearchShort(q);
  await dropUsersSearch(q);
  await createUsersSearch(q);
  await createUsersSearchShort(q);
}
