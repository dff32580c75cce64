import { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from '../migration-shapes';

/**
 * Privacy (docs/privacy.md): an organisation's choice to let members delete their own account and how long it keeps
 * its audit events, and the mark of an erased account (its row stays as a tombstone the audit trail's ids point to).
 */
export class Privacy1766700000000 implements MigrationInterface {
  name = 'Privacy1766700000000';

  async up(q: QueryRunner): Promise<void> {
    const { date } = portable(q);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "selfDeletion" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "auditRetentionDays" integer NULL`);
    await q.query(`ALTER TABLE "users" ADD COLUMN "erasedAt" ${date} NULL`);
    // The retention job deletes sign-ins older than their period across every account: by time, in small batches.
    await q.query(`CREATE INDEX "IDX_sign_in_history_at" ON "sign_in_history" ("at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX "IDX_sign_in_history_at"');
    await q.query('ALTER TABLE "users" DROP COLUMN "erasedAt"');
    await q.query('ALTER TABLE "organisations" DROP COLUMN "auditRetentionDays"');
    await q.query('ALTER TABLE "organisations" DROP COLUMN "selfDeletion"');
  }
}
