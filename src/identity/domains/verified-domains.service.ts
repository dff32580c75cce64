import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { emailDomain, normaliseDomain } from '../../shared/identity/domains';
import { OrganisationDomain } from './entities/organisation-domain.entity';

/**
 * What sign-in needs to know of verified domains: which organisation, if any, proved a domain, and
 * whether a given organisation did. Domains are compared in their stored form (lower case, no final dot).
 */
@Injectable()
export class VerifiedDomainsService {
  constructor(@InjectRepository(OrganisationDomain) private readonly domains: Repository<OrganisationDomain>) {}

  /** The id of the organisation that verified `domain`, or null when none has; read through `manager` when given. */
  async organisationForVerifiedDomain(domain: string, manager?: EntityManager): Promise<number | null> {
    const repo = manager ? manager.getRepository(OrganisationDomain) : this.domains;
    const row = await repo.findOne({
      select: { organisationId: true },
      where: { verifiedDomain: normaliseDomain(domain) },
    });
    return row?.organisationId ?? null;
  }

  /** Whether `organisationId` verified `domain`. */
  async isVerified(organisationId: number, domain: string): Promise<boolean> {
    return this.domains.existsBy({ organisationId, verifiedDomain: normaliseDomain(domain) });
  }

  /** The organisation that verified the domain of an e-mail address, or null. */
  organisationForEmail(email: string): Promise<number | null> {
    const domain = emailDomain(email);
    return domain ? this.organisationForVerifiedDomain(domain) : Promise.resolve(null);
  }
}
