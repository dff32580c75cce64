import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable } from '../migration-shapes';

/**
 * The audit trail: append-only events, read by organisation and time, newest first; no foreign
 * keys, so that an event outlives the account or organisation it names (the retention purge removes it).
 */
export class AuditEvents1763900000000 implements MigrationInterface {
  name = 'AuditEvents1763900000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id } = portable(q);
    await q.createTable(
      new Table({
        name: 'audit_events',
        columns: [
          id,
          { name: 'occurredAt', type: date },
          { name: 'type', type: 'varchar', length: '40' },
          { name: 'organisationId', type: 'integer', isNullable: true },
          { name: 'actorKind', type: 'varchar', length: '10' },
          { name: 'actorId', type: 'integer', isNullable: true },
          { name: 'actorEmail', type: 'varchar', length: '100', isNullable: true },
          { name: 'actorOrganisationId', type: 'integer', isNullable: true },
          { name: 'targetId', type: 'integer', isNullable: true },
          { name: 'targetEmail', type: 'varchar', length: '100', isNullable: true },
          { name: 'targetOrganisationId', type: 'integer', isNullable: true },
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          { name: 'userAgent', type: 'varchar', length: '300', isNullable: true },
          { name: 'summary', type: 'varchar', length: '500' },
          { name: 'changes', type: 'text', isNullable: true },
        ],
      }),
    );
    await q.createIndex(
      'audit_events',
      new TableIndex({ name: 'IDX_audit_events_org_time', columnNames: ['organisationId', 'occurredAt', 'id'] }),
    );
    // The type filter's count reads an index range, not every event of the organisation.
    await q.createIndex(
      'audit_events',
      new TableIndex({
        name: 'IDX_audit_events_org_type_time',
        columnNames: ['organisationId', 'type', 'occurredAt', 'id'],
      }),
    );
    await q.createIndex(
      'audit_events',
      new TableIndex({
        name: 'IDX_audit_events_org_actor_time',
        columnNames: ['organisationId', 'actorId', 'occurredAt', 'id'],
      }),
    );
    await q.createIndex(
      'audit_events',
      new TableIndex({
        name: 'IDX_audit_events_org_target_time',
        columnNames: ['organisationId', 'targetId', 'occurredAt', 'id'],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['audit_events']);
    await q.dropTable('audit_events');
  }
}
