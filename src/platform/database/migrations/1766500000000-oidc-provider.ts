import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/**
 * The portal as an OpenID provider (docs/oidc-provider.md): the registered applications, the provider's own
 * records (codes, tokens, grants, sessions, interactions: one row per model and id, every instance reading the same),
 * its signing keys, each member's consent to an organisation's application, and the portal session each grant was
 * made in (so that ending the portal session ends what the applications hold).
 */
export class OidcProvider1766500000000 implements MigrationInterface {
  name = 'OidcProvider1766500000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, now, id, createdAt } = portable(q);
    await q.createTable(
      new Table({
        name: 'oidc_clients',
        columns: [
          id,
          { name: 'clientId', type: 'varchar', length: '64' },
          { name: 'organisationId', type: 'integer', isNullable: true },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'type', type: 'varchar', length: '20' },
          { name: 'redirectUris', type: 'text' },
          { name: 'postLogoutRedirectUris', type: 'text' },
          { name: 'backchannelLogoutUri', type: 'varchar', length: '2048', isNullable: true },
          { name: 'secretSealed', type: 'varchar', length: '300', isNullable: true },
          createdAt,
          { name: 'createdBy', type: 'varchar', length: '100', isNullable: true },
          { name: 'lastUsedAt', type: date, isNullable: true },
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
        indices: [
          { name: 'IDX_oidc_clients_client_id', columnNames: ['clientId'], isUnique: true },
          { name: 'IDX_oidc_clients_org', columnNames: ['organisationId'] },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'oidc_records',
        columns: [
          { name: 'model', type: 'varchar', length: '50', isPrimary: true },
          { name: 'id', type: 'varchar', length: '255', isPrimary: true },
          { name: 'payload', type: 'text' },
          { name: 'grantId', type: 'varchar', length: '255', isNullable: true },
          { name: 'userCode', type: 'varchar', length: '255', isNullable: true },
          { name: 'uid', type: 'varchar', length: '255', isNullable: true },
          { name: 'clientId', type: 'varchar', length: '64', isNullable: true },
          { name: 'accountId', type: 'varchar', length: '20', isNullable: true },
          { name: 'expiresAt', type: date, isNullable: true },
          { name: 'consumedAt', type: date, isNullable: true },
        ],
        indices: [
          { name: 'IDX_oidc_records_grant', columnNames: ['grantId'] },
          { name: 'IDX_oidc_records_user_code', columnNames: ['userCode'] },
          { name: 'IDX_oidc_records_uid', columnNames: ['uid'] },
          { name: 'IDX_oidc_records_client_account', columnNames: ['clientId', 'accountId'] },
          { name: 'IDX_oidc_records_expires', columnNames: ['expiresAt'] },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'oidc_signing_keys',
        columns: [
          { name: 'kid', type: 'varchar', length: '64', isPrimary: true },
          { name: 'alg', type: 'varchar', length: '10' },
          { name: 'privateJwkSealed', type: 'text' },
          createdAt,
          { name: 'retiredAt', type: date, isNullable: true },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'oidc_consents',
        columns: [
          { name: 'userId', type: 'integer', isPrimary: true },
          { name: 'clientId', type: 'varchar', length: '64', isPrimary: true },
          { name: 'scopes', type: 'varchar', length: '300' },
          { name: 'grantedAt', type: date, default: now },
          { name: 'lastUsedAt', type: date, isNullable: true },
        ],
        foreignKeys: [
          foreignKey('userId', 'users'),
          {
            columnNames: ['clientId'],
            referencedTableName: 'oidc_clients',
            referencedColumnNames: ['clientId'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ name: 'IDX_oidc_consents_client', columnNames: ['clientId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'oidc_session_links',
        columns: [
          { name: 'grantId', type: 'varchar', length: '255', isPrimary: true },
          { name: 'portalSessionId', type: 'varchar', length: '36' },
          { name: 'userId', type: 'integer' },
          { name: 'clientId', type: 'varchar', length: '64' },
          { name: 'opSessionUid', type: 'varchar', length: '64', isNullable: true },
          { name: 'sid', type: 'varchar', length: '64', isNullable: true },
          createdAt,
          { name: 'loggedOutAt', type: date, isNullable: true },
          { name: 'pending', type: 'text', isNullable: true },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'nextAttemptAt', type: date, isNullable: true },
        ],
        indices: [
          { name: 'IDX_oidc_session_links_session', columnNames: ['portalSessionId'] },
          { name: 'IDX_oidc_session_links_op_session', columnNames: ['opSessionUid'] },
          { name: 'IDX_oidc_session_links_next', columnNames: ['loggedOutAt', 'nextAttemptAt'] },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['oidc_clients', 'oidc_consents'], []);
    await q.dropTable('oidc_session_links');
    await q.dropTable('oidc_consents');
    await q.dropTable('oidc_signing_keys');
    await q.dropTable('oidc_records');
    await q.dropTable('oidc_clients');
  }
}
