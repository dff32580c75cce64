import { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from '../migration-shapes';

/**
 * When the owner reported a sign-in as not theirs ("This wasn't me"): from then until they set a new password, the
 * account's password opens nothing (docs/security.md, "This wasn't me").
 */
export class PasswordCompromised1766440000000 implements MigrationInterface {
  name = 'PasswordCompromised1766440000000';

  async up(q: QueryRunner): Promise<void> {
    const { date } = portable(q);
    await q.query(`ALTER TABLE "users" ADD COLUMN "passwordCompromisedAt" ${date} NULL`);
  }

  /** Dropping the column makes a reported password usable again. */
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "users" DROP COLUMN "passwordCompromisedAt"');
  }
}
