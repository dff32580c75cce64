import { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from '../migration-shapes';

/** Verified domains are looked up again periodically: when, and since when their record is missing. */
export class DomainRecheck1765310000000 implements MigrationInterface {
  name = 'DomainRecheck1765310000000';

  async up(q: QueryRunner): Promise<void> {
    const { date } = portable(q);
    await q.query(`ALTER TABLE "organisation_domains" ADD COLUMN "checkedAt" ${date} NULL`);
    await q.query(`ALTER TABLE "organisation_domains" ADD COLUMN "recordMissingSince" ${date} NULL`);
  }

  /** The two columns only say when the next check is due: nothing of value is lost by dropping them. */
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "organisation_domains" DROP COLUMN "recordMissingSince"');
    await q.query('ALTER TABLE "organisation_domains" DROP COLUMN "checkedAt"');
  }
}
