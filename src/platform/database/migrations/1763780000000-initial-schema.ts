import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Organisations, users, sessions, refresh tokens and password-reset tokens. Portable: SQLite and PostgreSQL. */
export class InitialSchema1763780000000 implements MigrationInterface {
  name = 'InitialSchema1763780000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, now, id, createdAt } = portable(q);
    const updated = { name: 'updatedAt', type: date, default: now };

    await q.createTable(
      new Table({
        name: 'organisations',
        columns: [
          id,
          { name: 'code', type: 'varchar', length: '25', isUnique: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'accountType', type: 'varchar', length: '20', default: "'ORGANIZATION'" },
          { name: 'isVendor', type: 'boolean', default: false },
          { name: 'allowedUsersNumber', type: 'integer', default: 1 },
          { name: 'maxConcurrentUsers', type: 'integer', default: 1 },
          { name: 'maxPortfolios', type: 'integer', default: 0 },
          { name: 'applications', type: 'text', default: "'[]'" },
          { name: 'isSSOEnabled', type: 'boolean', default: false },
          { name: 'ssoLogoutUrl', type: 'varchar', length: '500', isNullable: true },
          { name: 'logoPath', type: 'varchar', length: '300', isNullable: true },
          createdAt,
          updated,
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'users',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'email', type: 'varchar', length: '100', isUnique: true },
          { name: 'passwordHash', type: 'varchar', length: '200', isNullable: true },
          { name: 'firstName', type: 'varchar', length: '100', default: "''" },
          { name: 'lastName', type: 'varchar', length: '100', default: "''" },
          { name: 'jobTitle', type: 'varchar', length: '100', default: "''" },
          { name: 'department', type: 'varchar', length: '100', default: "''" },
          { name: 'location', type: 'varchar', length: '100', default: "''" },
          { name: 'roleId', type: 'integer', default: 4 },
          { name: 'isAdministrator', type: 'boolean', default: false },
          { name: 'isDisabled', type: 'boolean', default: false },
          { name: 'isBlocked', type: 'boolean', default: false },
          { name: 'isMFAEnforced', type: 'boolean', default: true },
          { name: 'isMFAEnabled', type: 'boolean', default: false },
          { name: 'mfaSecret', type: 'varchar', length: '300', isNullable: true },
          { name: 'mfaPendingSecret', type: 'varchar', length: '300', isNullable: true },
          { name: 'mfaLastUsedStep', type: 'integer', isNullable: true },
          { name: 'emailMfaCodeHash', type: 'varchar', length: '200', isNullable: true },
          { name: 'emailMfaCodeExpiresAt', type: date, isNullable: true },
          { name: 'isSSO', type: 'boolean', default: false },
          { name: 'mustChangePassword', type: 'boolean', default: false },
          { name: 'passwordChangedAt', type: date, isNullable: true },
          { name: 'lastLoginAt', type: date, isNullable: true },
          createdAt,
          updated,
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
      }),
    );
    await q.createIndex('users', new TableIndex({ name: 'IDX_users_org', columnNames: ['organisationId'] }));
    await q.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_org_name', columnNames: ['organisationId', 'lastName', 'firstName'] }),
    );

    await q.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'userId', type: 'integer' },
          { name: 'organisationId', type: 'integer' },
          createdAt,
          { name: 'lastRefreshAt', type: date },
          { name: 'endedAt', type: date, isNullable: true },
          { name: 'endReason', type: 'varchar', length: '30', isNullable: true },
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          { name: 'userAgent', type: 'varchar', length: '300', isNullable: true },
          { name: 'method', type: 'varchar', length: '20', default: "'password'" },
        ],
        foreignKeys: [foreignKey('userId', 'users')],
      }),
    );
    await q.createIndex('sessions', new TableIndex({ name: 'IDX_sessions_user', columnNames: ['userId', 'endedAt'] }));
    await q.createIndex(
      'sessions',
      new TableIndex({ name: 'IDX_sessions_org', columnNames: ['organisationId', 'endedAt'] }),
    );

    await q.createTable(
      new Table({
        name: 'refresh_tokens',
        columns: [
          id,
          { name: 'sessionId', type: 'varchar', length: '36' },
          { name: 'tokenHash', type: 'varchar', length: '64' },
          createdAt,
          { name: 'expiresAt', type: date },
          { name: 'usedAt', type: date, isNullable: true },
        ],
        foreignKeys: [foreignKey('sessionId', 'sessions')],
      }),
    );
    await q.createIndex(
      'refresh_tokens',
      new TableIndex({ name: 'IDX_refresh_tokens_session', columnNames: ['sessionId'] }),
    );
    await q.createIndex(
      'refresh_tokens',
      new TableIndex({ name: 'IDX_refresh_tokens_hash', columnNames: ['tokenHash'], isUnique: true }),
    );

    await q.createTable(
      new Table({
        name: 'password_reset_tokens',
        columns: [
          id,
          { name: 'userId', type: 'integer' },
          { name: 'tokenHash', type: 'varchar', length: '64' },
          createdAt,
          { name: 'expiresAt', type: date },
          { name: 'usedAt', type: date, isNullable: true },
        ],
        foreignKeys: [foreignKey('userId', 'users')],
      }),
    );
    await q.createIndex(
      'password_reset_tokens',
      new TableIndex({ name: 'IDX_password_reset_tokens_user', columnNames: ['userId'] }),
    );
    await q.createIndex(
      'password_reset_tokens',
      new TableIndex({ name: 'IDX_password_reset_tokens_hash', columnNames: ['tokenHash'], isUnique: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, [
      'password_reset_tokens',
      'refresh_tokens',
      'sessions',
      'users',
      'organisations',
    ]);
    for (const t of ['password_reset_tokens', 'refresh_tokens', 'sessions', 'users', 'organisations'])
      await q.dropTable(t);
  }
}
