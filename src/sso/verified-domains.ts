import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Which organisation has verified a domain (CONTRACT 6): a domain is verified by one organisation at most.
 * Sign-in asks only this, so the domain verification itself stays with the domains feature.
 */
@Injectable()
export class VerifiedDomains {
  constructor(private readonly db: DataSource) {}

  async organisationFor(domain: string): Promise<number | null> {
    if (!domain) return null;
    const column = (name: string) => `d.${this.db.driver.escape(name)}`;
    const row = await this.db
      .createQueryBuilder()
      .select(column('organisationId'), 'organisationId')
      .from('organisation_domains', 'd')
      .where(`${column('verifiedDomain')} = :domain`, { domain: domain.toLowerCase() })
      .getRawOne<{ organisationId: number }>();
    return row ? Number(row.organisationId) : null;
  }

  async isVerified(organisationId: number, domain: string): Promise<boolean> {
    return (await this.organisationFor(domain)) === organisationId;
  }
}

/** The domain part of an e-mail address, lower-case; '' when there is none. */
export function domainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, '');
}
