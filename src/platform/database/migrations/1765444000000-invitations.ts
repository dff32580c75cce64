import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Invitations: an e-mailed, single-use link (stored hashed) to join an organisation with a chosen role. */
export class Invitations1765444000000 implements MigrationInterface {
  name = 'Invitations1765444000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id, createdAt } = portable(q);
    await q.createTable(
      new Table({
        name: 'invitations',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'email', type: 'varchar', length: '100' },
          { name: 'roleId', type: 'integer' },
          { name: 'isAdministrator', type: 'boolean', default: false },
          { name: 'tokenHash', type: 'varchar', length: '64' },
          { name: 'expiresInDays', type: 'integer' },
          { name: 'expiresAt', type: date },
          createdAt,
          { name: 'invitedById', type: 'integer', isNullable: true },
          { name: 'invitedByName', type: 'varchar', length: '201' },
          { name: 'acceptedAt', type: date, isNullable: true },
          { name: 'acceptedUserId', type: 'integer', isNullable: true },
          { name: 'revokedAt', type: date, isNullable: true },
        ],
        foreignKeys: [
          foreignKey('organisationId', 'organisations'),
          foreignKey('invitedById', 'users', 'SET NULL'),
          foreignKey('acceptedUserId', 'users', 'SET NULL'),
        ],
        indices: [
          { name: 'IDX_invitations_org_email', columnNames: ['organisationId', 'email'] },
          { name: 'IDX_invitations_token', columnNames: ['tokenHash'], isUnique: true },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['invitations']);
    await q.dropTable('invitations');
  }
}
