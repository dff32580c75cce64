import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation } from '../../platform/web/auth-user';
import { RequestContext } from '../../platform/web/request-context';
import { lockRow } from '../../platform/database/locks';
import { isUniqueViolation } from '../../platform/database/unique-violation';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import {
  DOMAIN_MESSAGES as M,
  DOMAIN_TXT_VALUE_PREFIX,
  DomainCheckFailure,
  DomainItem,
  DomainVerifyResult,
  domainTxtName,
  MAX_DOMAINS_PER_ORGANISATION,
} from '../../shared/identity/domains';
import { ERROR_CODES } from '../../shared/messages';
import { AuditService } from '../../platform/audit';
import { DnsTxtResolver } from './dns-txt.resolver';
import { OrganisationDomain } from './entities/organisation-domain.entity';

export function toDomainItem(d: OrganisationDomain): DomainItem {
  return {
    id: d.id,
    organisationId: d.organisationId,
    domain: d.domain,
    verified: d.verifiedDomain !== null,
    verifiedAt: d.verifiedAt ? new Date(d.verifiedAt).toISOString() : null,
    checkedAt: d.checkedAt ? new Date(d.checkedAt).toISOString() : null,
    recordMissingSince: d.recordMissingSince ? new Date(d.recordMissingSince).toISOString() : null,
    txtName: domainTxtName(d.domain),
    txtValue: d.txtValue,
    createdAt: new Date(d.createdAt).toISOString(),
  };
}

/**
 * An organisation's claimed domains and their DNS proof. Site admins work on their own organisation,
 * E-Support on any (organisationId); a domain of another organisation is a 404 to everyone else.
 */
@Injectable()
export class DomainsService {
  constructor(
    @InjectRepository(OrganisationDomain) private readonly domains: Repository<OrganisationDomain>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly dns: DnsTxtResolver,
    private readonly audit: AuditService,
  ) {}

  /** The organisation the caller works on: their own, or (E-Support only) the one asked for. */
  private async organisationFor(caller: AuthUser, organisationId?: number): Promise<number> {
    const id = organisationId ?? caller.organisationId;
    if (!canAccessOrganisation(caller, id) || !(await this.organisations.existsBy({ id })))
      throw AppException.notFound('Organisation not found.');
    return id;
  }

  private async accessible(caller: AuthUser, id: number): Promise<OrganisationDomain> {
    const domain = await this.domains.findOneBy({ id });
    if (!domain || !canAccessOrganisation(caller, domain.organisationId)) throw AppException.notFound(M.NOT_FOUND);
    return domain;
  }

  async list(caller: AuthUser, organisationId?: number): Promise<DomainItem[]> {
    const org = await this.organisationFor(caller, organisationId);
    const rows = await this.domains.find({ where: { organisationId: org }, order: { domain: 'ASC', id: 'ASC' } });
    return rows.map(toDomainItem);
  }

  async claim(caller: AuthUser, domain: string, client: RequestContext, organisationId?: number): Promise<DomainItem> {
    const org = await this.organisationFor(caller, organisationId);
    try {
      const saved = await this.domains.manager.transaction(async (tx) => {
        // The organisation's row lock queues parallel claims, so the count below includes each other's.
        await lockRow(tx, Organisation, org);
        const repo = tx.getRepository(OrganisationDomain);
        if (await repo.existsBy({ organisationId: org, domain }))
          throw AppException.conflict(M.ALREADY_CLAIMED, ERROR_CODES.DOMAIN_ALREADY_CLAIMED);
        if (await repo.existsBy({ verifiedDomain: domain }))
          throw AppException.conflict(M.TAKEN, ERROR_CODES.DOMAIN_TAKEN);
        if ((await repo.countBy({ organisationId: org })) >= MAX_DOMAINS_PER_ORGANISATION)
          throw AppException.conflict(M.TOO_MANY, ERROR_CODES.DOMAIN_LIMIT);
        const row = await repo.save(
          repo.create({
            organisationId: org,
            domain,
            txtValue: `${DOMAIN_TXT_VALUE_PREFIX}${randomBytes(24).toString('base64url')}`,
            verifiedDomain: null,
            verifiedAt: null,
          }),
        );
        await this.audit.record(tx, {
          type: 'DOMAIN_CLAIMED',
          actor: caller,
          organisationId: org,
          client,
          summary: `Domain ${domain} added`,
        });
        return row;
      });
      return toDomainItem(saved);
    } catch (e) {
      // Only reached when two claims of one organisation raced past the check on PostgreSQL's unique index.
      if (isUniqueViolation(e)) throw AppException.conflict(M.ALREADY_CLAIMED, ERROR_CODES.DOMAIN_ALREADY_CLAIMED);
      throw e;
    }
  }

  /**
   * Looks the TXT record up and, when one of its values is the domain's, marks the domain verified. The
   * unique index on verifiedDomain decides between organisations verifying one domain at the same moment.
   */
  async verify(caller: AuthUser, id: number, client: RequestContext): Promise<DomainVerifyResult> {
    const domain = await this.accessible(caller, id);
    if (domain.verifiedDomain !== null && !domain.recordMissingSince) return { verified: true };
    const lookup = await this.dns.txt(domainTxtName(domain.domain));
    const failure: DomainCheckFailure | null =
      lookup.kind === 'unavailable'
        ? 'DNS_UNAVAILABLE'
        : lookup.kind === 'none'
          ? 'NO_RECORD'
          : lookup.values.includes(domain.txtValue)
            ? null
            : 'WRONG_VALUE';
    if (failure) throw AppException.badRequest(M[failure], ERROR_CODES.DOMAIN_NOT_VERIFIED, { reason: failure });
    if (domain.verifiedDomain !== null) {
      // Verified, and its record found missing by the periodic check: published again, the grace period ends.
      await this.domains.update(
        { id, verifiedDomain: domain.verifiedDomain },
        { recordMissingSince: null, checkedAt: new Date() },
      );
      return { verified: true };
    }
    try {
      await this.domains.manager.transaction(async (tx) => {
        const result = await tx
          .createQueryBuilder()
          .update(OrganisationDomain)
          .set({ verifiedDomain: domain.domain, verifiedAt: new Date() })
          .where('id = :id AND "verifiedDomain" IS NULL', { id })
          .execute();
        // A parallel Verify of this same row got there first: verified either way, one audit event.
        if (!result.affected) return;
        await this.audit.record(tx, {
          type: 'DOMAIN_VERIFIED',
          actor: caller,
          organisationId: domain.organisationId,
          client,
          summary: `Domain ${domain.domain} verified`,
        });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw AppException.conflict(M.TAKEN, ERROR_CODES.DOMAIN_TAKEN);
      throw e;
    }
    // The row may have been removed while DNS was asked: then it is not verified, and says so.
    if (!(await this.domains.existsBy({ id, verifiedDomain: domain.domain }))) throw AppException.notFound(M.NOT_FOUND);
    return { verified: true };
  }

  async remove(caller: AuthUser, id: number, client: RequestContext): Promise<{ success: true }> {
    const domain = await this.accessible(caller, id);
    await this.domains.manager.transaction(async (tx) => {
      const result = await tx.getRepository(OrganisationDomain).delete({ id });
      if (!result.affected) throw AppException.notFound(M.NOT_FOUND);
      await this.audit.record(tx, {
        type: 'DOMAIN_REMOVED',
        actor: caller,
        organisationId: domain.organisationId,
        client,
        summary: `Domain ${domain.domain} removed`,
        changes: { verified: { from: domain.verifiedDomain !== null, to: false } },
      });
    });
    return { success: true };
  }
}
