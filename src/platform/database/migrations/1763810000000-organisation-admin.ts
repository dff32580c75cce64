import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Billing contacts of an organisation and the single-use logo upload grants. Portable: SQLite and PostgreSQL. */
export class OrganisationAdmin1763810000000 implements MigrationInterface {
  name = 'OrganisationAdmin1763810000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, now, id, createdAt } = portable(q);
    const text = (name: string, length = '100') => ({ name, type: 'varchar', length, default: "''" });

    await q.createTable(
      new Table({
        name: 'contact_profiles',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'kind', type: 'varchar', length: '10' },
          text('fullName'),
          text('jobTitle'),
          text('department'),
          text('basedIn'),
          text('email'),
          text('mobile', '40'),
          createdAt,
          { name: 'updatedAt', type: date, default: now },
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
      }),
    );
    await q.createIndex(
      'contact_profiles',
      new TableIndex({
        name: 'IDX_contact_profiles_org_kind',
        columnNames: ['organisationId', 'kind'],
        isUnique: true,
      }),
    );

    await q.createTable(
      new Table({
        name: 'logo_uploads',
        columns: [
          { name: 'nonce', type: 'varchar', length: '64', isPrimary: true },
          { name: 'organisationId', type: 'integer' },
          { name: 'storedName', type: 'varchar', length: '100' },
          { name: 'expiresAt', type: date },
          { name: 'usedAt', type: date, isNullable: true },
          createdAt,
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
      }),
    );
    await q.createIndex(
      'logo_uploads',
      new TableIndex({ name: 'IDX_logo_uploads_stored', columnNames: ['storedName'], isUnique: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['contact_profiles']);
    for (const t of ['logo_uploads', 'contact_profiles']) await q.dropTable(t);
  }
}
