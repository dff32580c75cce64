import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/**
 * What an organisation's own systems receive: webhook endpoints, audit log streams, and the one outbox of their
 * deliveries (a row written in the transaction of the change it tells of, claimed by one instance per attempt).
 */
export class Integrations1766430000000 implements MigrationInterface {
  name = 'Integrations1766430000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id, createdAt } = portable(q);
    const organisation = () => foreignKey('organisationId', 'organisations');
    await q.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'events', type: 'text' },
          { name: 'description', type: 'varchar', length: '200', isNullable: true },
          { name: 'enabled', type: 'boolean', default: true },
          { name: 'disabledReason', type: 'varchar', length: '200', isNullable: true },
          { name: 'secretSealed', type: 'varchar', length: '300' },
          { name: 'previousSecretSealed', type: 'varchar', length: '300', isNullable: true },
          { name: 'previousSecretUntil', type: date, isNullable: true },
          { name: 'failingSince', type: date, isNullable: true },
          createdAt,
          { name: 'createdBy', type: 'varchar', length: '100', isNullable: true },
        ],
        foreignKeys: [organisation()],
        indices: [{ name: 'IDX_webhook_endpoints_org', columnNames: ['organisationId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'log_streams',
        columns: [
          id,
          { name: 'organisationId', type: 'integer', isNullable: true },
          { name: 'type', type: 'varchar', length: '20' },
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'tokenSealed', type: 'varchar', length: '1000' },
          createdAt,
          { name: 'createdBy', type: 'varchar', length: '100', isNullable: true },
          { name: 'lastDeliveredAt', type: date, isNullable: true },
          { name: 'lastError', type: 'varchar', length: '500', isNullable: true },
        ],
        foreignKeys: [organisation()],
        indices: [{ name: 'IDX_log_streams_org', columnNames: ['organisationId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'integration_deliveries',
        columns: [
          id,
          { name: 'endpointId', type: 'integer', isNullable: true },
          { name: 'streamId', type: 'integer', isNullable: true },
          { name: 'eventId', type: 'varchar', length: '40' },
          { name: 'type', type: 'varchar', length: '60' },
          { name: 'payload', type: 'text' },
          { name: 'occurredAt', type: date },
          { name: 'status', type: 'varchar', length: '10', default: "'pending'" },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'nextAttemptAt', type: date, isNullable: true },
          { name: 'claimedBy', type: 'varchar', length: '60', isNullable: true },
          { name: 'claimedUntil', type: date, isNullable: true },
          { name: 'lastStatusCode', type: 'integer', isNullable: true },
          { name: 'lastError', type: 'varchar', length: '500', isNullable: true },
          createdAt,
          { name: 'finishedAt', type: date, isNullable: true },
        ],
        foreignKeys: [foreignKey('endpointId', 'webhook_endpoints'), foreignKey('streamId', 'log_streams')],
        indices: [
          { name: 'IDX_integration_deliveries_due', columnNames: ['status', 'nextAttemptAt'] },
          { name: 'IDX_integration_deliveries_endpoint', columnNames: ['endpointId', 'id'] },
          { name: 'IDX_integration_deliveries_stream', columnNames: ['streamId', 'status'] },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['webhook_endpoints', 'log_streams']);
    await q.dropTable('integration_deliveries');
    await q.dropTable('log_streams');
    await q.dropTable('webhook_endpoints');
  }
}
