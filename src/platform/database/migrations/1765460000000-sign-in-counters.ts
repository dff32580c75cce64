import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sign-in throttle's counters (failures per account and address, per address, per account; the owner's alert
 * once per window), kept in the database so that a lock holds on every instance, across restarts and whatever
 * Redis does (docs/decisions/sign-in-locks.md). Times are milliseconds since the epoch.
 */
export class SignInCounters1765460000000 implements MigrationInterface {
  name = 'SignInCounters1765460000000';

  async up(q: QueryRunner): Promise<void> {
    const bigint = q.connection.driver.options.type === 'postgres' ? 'bigint' : 'integer';
    await q.query(
      `CREATE TABLE "sign_in_counters" ("key" varchar(400) PRIMARY KEY NOT NULL, "count" integer NOT NULL, "expiresAt" ${bigint} NOT NULL)`,
    );
    await q.query('CREATE INDEX "IDX_sign_in_counters_expires" ON "sign_in_counters" ("expiresAt")');
  }

  /** Counters live 15 minutes at most: dropping them forgets locks that would soon lift anyway. */
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE "sign_in_counters"');
  }
}
