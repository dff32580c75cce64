import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A refresh-token rotation in one statement. The successor names the token it replaces
 * (`replacesId`, unique: a token has at most one successor, so two requests racing with the same token
 * cannot both rotate it, on PostgreSQL's concurrent connections as on SQLite), and a trigger on its
 * insertion marks the predecessor used and the session refreshed, in the same statement. So the rotation
 * is atomic without an explicit transaction: one round trip instead of five (BEGIN, claim, successor,
 * session, COMMIT) while holding SQLite's one connection.
 */
export class RefreshRotation1764000000000 implements MigrationInterface {
  name = 'RefreshRotation1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "refresh_tokens" ADD COLUMN "replacesId" integer`);
    await q.query(`CREATE UNIQUE INDEX "IDX_refresh_tokens_replaces" ON "refresh_tokens" ("replacesId")`);
    if (q.connection.driver.options.type === 'postgres') {
      await q.query(`CREATE FUNCTION "refresh_token_rotated"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE "refresh_tokens" SET "usedAt" = NEW."createdAt" WHERE "id" = NEW."replacesId";
          UPDATE "sessions" SET "lastRefreshAt" = NEW."createdAt" WHERE "id" = NEW."sessionId";
          RETURN NULL;
        END $$`);
      await q.query(`CREATE TRIGGER "refresh_tokens_rotated" AFTER INSERT ON "refresh_tokens"
        FOR EACH ROW WHEN (NEW."replacesId" IS NOT NULL) EXECUTE FUNCTION "refresh_token_rotated"()`);
      return;
    }
    await q.query(`CREATE TRIGGER "refresh_tokens_rotated" AFTER INSERT ON "refresh_tokens" WHEN new."replacesId" IS NOT NULL BEGIN
      UPDATE "refresh_tokens" SET "usedAt" = new."createdAt" WHERE "id" = new."replacesId";
      UPDATE "sessions" SET "lastRefreshAt" = new."createdAt" WHERE "id" = new."sessionId"; END`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'DROP TRIGGER "refresh_tokens_rotated"' +
        (q.connection.driver.options.type === 'postgres' ? ' ON "refresh_tokens"' : ''),
    );
    if (q.connection.driver.options.type === 'postgres') await q.query('DROP FUNCTION "refresh_token_rotated"()');
    await q.query('DROP INDEX "IDX_refresh_tokens_replaces"');
    await q.query(`ALTER TABLE "refresh_tokens" DROP COLUMN "replacesId"`);
  }
}
