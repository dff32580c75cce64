import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organisation's users online (a sign-in's concurrent-users check, the insights' peak, the sessions page): its
 * open sessions refreshed within the access token's lifetime. IDX_sessions_org (organisation, ended) found every open
 * session the organisation ever had and read each row for its refresh time, and a session nobody logs out of stays
 * open, so the check grew with the organisation's history. This index holds only open sessions, by organisation and
 * refresh time, with the user: the count reads the online ones from the index alone (docs/decisions/). "endedAt",
 * always null in it, is a column too: SQLite reads a partial index without the table only when it holds every column
 * the statement names.
 */
export class OnlineSessionsIndex1766800000000 implements MigrationInterface {
  name = 'OnlineSessionsIndex1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "IDX_sessions_org_online" ON "sessions" ("organisationId", "lastRefreshAt", "userId", "endedAt") WHERE "endedAt" IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX "IDX_sessions_org_online"');
  }
}
