import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { refuseToDeleteData } from '../undo-guard';
import { portable, foreignKey } from '../migration-shapes';

/** Verified domains: each organisation's claimed domains, and a unique index that lets one organisation verify each. */
export class OrganisationDomains1765050000000 implements MigrationInterface {
  name = 'OrganisationDomains1765050000000';

  async up(q: QueryRunner): Promise<void> {
    const { date, id, createdAt } = portable(q);
    await q.createTable(
      new Table({
        name: 'organisation_domains',
        columns: [
          id,
          { name: 'organisationId', type: 'integer' },
          { name: 'domain', type: 'varchar', length: '253' },
          { name: 'txtValue', type: 'varchar', length: '100' },
          { name: 'verifiedDomain', type: 'varchar', length: '253', isNullable: true },
          { name: 'verifiedAt', type: date, isNullable: true },
          createdAt,
        ],
        foreignKeys: [foreignKey('organisationId', 'organisations')],
        indices: [
          { name: 'IDX_organisation_domains_org_domain', columnNames: ['organisationId', 'domain'], isUnique: true },
          { name: 'IDX_organisation_domains_verified', columnNames: ['verifiedDomain'], isUnique: true },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await refuseToDeleteData(q, this.name, ['organisation_domains']);
    await q.dropTable('organisation_domains');
  }
}
