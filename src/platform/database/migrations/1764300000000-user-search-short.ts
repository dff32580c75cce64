import { MigrationInterface, QueryRunner } from 'typeorm';
import { createUsersSearchShort, dropUsersSearchShort } from '../sqlite/user-search-indexes';

/**
 * The user list's search for texts of 1 and 2 characters without a scan, SQLite only: the trigram
 * table of UserSearch finds nothing shorter than 3 characters, so 1-2 characters read every row of the
 * organisation through LIKE.
 *
 * `users_search_short` is a second contentless FTS5 trigram table (rowid = user id) whose one column spells the
 * name and the e-mail character by character, so that a 1- or 2-character text is one trigram token
 * (sqlite/user-search-indexes.ts).
 *
 * PostgreSQL: nothing here (pg_trgm cannot serve 1-2 characters either: UserSearchGrams indexes them there).
 */
export class UserSearchShort1764300000000 implements MigrationInterface {
  name = 'UserSearchShort1764300000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') return;
    await createUsersSearchShort(q);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') return;
    await dropUsersSearchShort(q);
  }
}
