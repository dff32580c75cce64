import { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from '../migration-shapes';

/**
 * An organisation's security policy, on its own row (the session check reads it in the query it already makes), and
 * when each session was last used (for the policy's idle limit).
 */
export class OrganisationSecurityPolicy1765400000000 implements MigrationInterface {
  name = 'OrganisationSecurityPolicy1765400000000';

  async up(q: QueryRunner): Promise<void> {
    const { date } = portable(q);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "mfaRequired" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "ssoRequired" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "ssoRequiredBy" integer NULL`);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "allowedIpRanges" text NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "sessionIdleMinutes" integer NULL`);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "sessionMaxHours" integer NULL`);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "passwordMinLength" integer NOT NULL DEFAULT 8`);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "securityPolicyAt" ${date} NULL`);
    await q.query(`ALTER TABLE "sessions" ADD COLUMN "lastUsedAt" ${date} NULL`);
  }

  /** Dropping the columns returns every organisation to no policy at all (the rules stop applying). */
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "sessions" DROP COLUMN "lastUsedAt"');
    for (const column of [
      'securityPolicyAt',
      'passwordMinLength',
      'sessionMaxHours',
      'sessionIdleMinutes',
      'allowedIpRanges',
      'ssoRequiredBy',
      'mfaRequired',
      'ssoRequired',
    ])
      await q.query(`ALTER TABLE "organisations" DROP COLUMN "${column}"`);
  }
}
