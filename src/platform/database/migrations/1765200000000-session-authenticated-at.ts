import { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from '../migration-shapes';

/**
 * When the session's holder last proved who they are (docs/product-rules.md §7, re-authentication): empty until the first step-up,
 * so the sign-in that opened the session (its createdAt) counts as one. Kept with the session, so every instance
 * behind a load balancer reads the same mark.
 */
export class SessionAuthenticatedAt1765200000000 implements MigrationInterface {
  name = 'SessionAuthenticatedAt1765200000000';

  async up(q: QueryRunner): Promise<void> {
    const { date } = portable(q);
    // A plain ADD COLUMN on both (TypeORM's addColumn would rebuild the SQLite table).
    await q.query(`ALTER TABLE "sessions" ADD COLUMN "authenticatedAt" ${date} NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "sessions" DROP COLUMN "authenticatedAt"');
  }
}
