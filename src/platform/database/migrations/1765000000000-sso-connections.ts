import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Each organisation's identity providers, the subjects they link to accounts, SSO sessions and one-time values. */
export class SsoConnections1765000000000 implements MigrationInterface {
  name = 'SsoConnections1765000000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, now, id, createdAt } = portable(q);
    await q.createTable(
      new Table({
        name: 'sso_connections',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'protocol', type: 'varchar', length: '10' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'enabled', type: 'boolean', default: true },
          { name: 'jitProvisioning', type: 'boolean', default: false },
          { name: 'defaultRoleId', type: 'integer', isNullable: true },
          { name: 'oidcIssuer', type: 'varchar', length: '500', isNullable: true },
          { name: 'oidcClientId', type: 'varchar', length: '200', isNullable: true },
          { name: 'oidcClientSecret', type: 'varchar', length: '1000', isNullable: true },
          { name: 'samlMetadataXml', type: 'text', isNullable: true },
          { name: 'samlEntityId', type: 'varchar', length: '500', isNullable: true },
          { name: 'samlSsoUrl', type: 'varchar', length: '500', isNullable: true },
          { name: 'samlSloUrl', type: 'varchar', length: '500', isNullable: true },
          { name: 'samlCertificates', type: 'text', isNullable: true },
          createdAt,
          { name: 'updatedAt', type: date, default: now },
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
        indices: [{ name: 'IDX_sso_connections_org', columnNames: ['organisationId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sso_identities',
        columns: [
          id,
          { name: 'connectionId', type: 'integer' },
          { name: 'subject', type: 'varchar', length: '300' },
          { name: 'userId', type: 'integer' },
          createdAt,
        ],
        foreignKeys: [foreignKey('connectionId', 'sso_connections'), foreignKey('userId', 'users')],
        indices: [
          { name: 'IDX_sso_identities_subject', columnNames: ['connectionId', 'subject'], isUnique: true },
          { name: 'IDX_sso_identities_user', columnNames: ['userId'] },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sso_sessions',
        columns: [
          { name: 'sessionId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'connectionId', type: 'integer' },
          { name: 'subject', type: 'varchar', length: '300' },
          { name: 'providerSessionId', type: 'varchar', length: '300', isNullable: true },
          { name: 'idToken', type: 'text', isNullable: true },
          { name: 'nameIdFormat', type: 'varchar', length: '200', isNullable: true },
        ],
        foreignKeys: [foreignKey('sessionId', 'sessions'), foreignKey('connectionId', 'sso_connections')],
        indices: [{ name: 'IDX_sso_sessions_subject', columnNames: ['connectionId', 'subject'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sso_one_time_values',
        columns: [
          { name: 'key', type: 'varchar', length: '400', isPrimary: true },
          { name: 'value', type: 'varchar', length: '100' },
          { name: 'expiresAt', type: date },
        ],
        indices: [{ name: 'IDX_sso_one_time_values_expires', columnNames: ['expiresAt'] }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['sso_sessions', 'sso_identities', 'sso_connections']);
    await q.dropTable('sso_one_time_values');
    await q.dropTable('sso_sessions');
    await q.dropTable('sso_identities');
    await q.dropTable('sso_connections');
  }
}
