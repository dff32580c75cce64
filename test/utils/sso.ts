import { Organisation } from '../../src/database/entities/organisation.entity';
import { TestApp } from './test-app';

/** Marks `domain` verified by `org`, as a successful DNS check does (the unique verifiedDomain). */
export async function verifyDomain(t: TestApp, org: Organisation, domain: string): Promise<void> {
  await t.db
    .createQueryBuilder()
    .insert()
    .into('organisation_domains', ['organisationId', 'domain', 'txtValue', 'verifiedDomain', 'verifiedAt'])
    .values({
      organisationId: org.id,
      domain,
      txtValue: 'tax-portal-verification=test',
      verifiedDomain: domain,
      verifiedAt: new Date(),
    })
    .execute();
}
