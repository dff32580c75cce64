import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether one account is online: its open sessions by refresh time. A sign-in's concurrent-users check counts the
 * organisation's accounts with an open session refreshed within the access token's lifetime, one index search each
 * (docs/decisions/). Counting the distinct users among the organisation's online sessions (IDX_sessions_org_online)
 * read every online session, and an account that signs in again and again keeps a session online for each sign-in of
 * the last fifteen minutes. "endedAt", always null in it, is a column too: SQLite reads a partial index without the
 * table only when it holds every column the statement names.
 */
export class UserOnlineSessionsIndex1766900000000 implements MigrationInterface {
  name = 'UserOnlineSessionsIndex1766900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "IDX_sessions_user_online" ON "sessions" ("userId", "lastRefreshAt", "endedAt") WHERE "endedAt" IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX "IDX_sessions_user_online"');
  }
}
