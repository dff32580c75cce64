import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/**
 * Support access (docs/support-access.md): the organisation's choice in its security policy, the requests and their
 * sessions, the session a request started (the session check reads the request with the session), and the audit
 * trail's second party (the member an E-Support account acted for, and the request it acted under).
 */
export class SupportAccess1766600000000 implements MigrationInterface {
  name = 'SupportAccess1766600000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id } = portable(q);
    await q.query(`ALTER TABLE "organisations" ADD COLUMN "supportAccess" varchar(10) NOT NULL DEFAULT 'approval'`);
    await q.createTable(
      new Table({
        name: 'support_access',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'supportUserId', type: 'integer' },
          { name: 'supportUserEmail', type: 'varchar', length: '100' },
          { name: 'userId', type: 'integer' },
          { name: 'reason', type: 'varchar', length: '500' },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'requestedAt', type: date },
          { name: 'expiresAt', type: date },
          { name: 'decidedBy', type: 'integer', isNullable: true },
          { name: 'startedAt', type: date, isNullable: true },
          { name: 'endsAt', type: date, isNullable: true },
          { name: 'endedAt', type: date, isNullable: true },
          { name: 'endReason', type: 'varchar', length: '20', isNullable: true },
          { name: 'sessionId', type: 'varchar', length: '36', isNullable: true },
        ],
        foreignKeys: [
          foreignKey('organisationId', 'organisations'),
          foreignKey('userId', 'users'),
          foreignKey('supportUserId', 'users'),
        ],
        indices: [
          { name: 'IDX_support_access_org', columnNames: ['organisationId', 'status'] },
          { name: 'IDX_support_access_support_user', columnNames: ['supportUserId', 'status'] },
          { name: 'IDX_support_access_session', columnNames: ['sessionId'] },
        ],
      }),
    );
    await q.query(`ALTER TABLE "sessions" ADD COLUMN "supportAccessId" integer NULL`);
    await q.query(`ALTER TABLE "audit_events" ADD COLUMN "onBehalfOfId" integer NULL`);
    await q.query(`ALTER TABLE "audit_events" ADD COLUMN "onBehalfOfEmail" varchar(100) NULL`);
    await q.query(`ALTER TABLE "audit_events" ADD COLUMN "supportAccessId" integer NULL`);
    await q.query(
      `CREATE INDEX "IDX_audit_events_support_access" ON "audit_events" ("supportAccessId") WHERE "supportAccessId" IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['support_access']);
    await q.query('DROP INDEX "IDX_audit_events_support_access"');
    for (const column of ['supportAccessId', 'onBehalfOfEmail', 'onBehalfOfId'])
      await q.query(`ALTER TABLE "audit_events" DROP COLUMN "${column}"`);
    await q.query('ALTER TABLE "sessions" DROP COLUMN "supportAccessId"');
    await q.dropTable('support_access');
    await q.query('ALTER TABLE "organisations" DROP COLUMN "supportAccess"');
  }
}
