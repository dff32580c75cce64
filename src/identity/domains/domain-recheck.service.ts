import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, IsNull, Not, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { runPeriodically } from '../../platform/jobs/periodic';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { MailService } from '../../platform/mail/mail.service';
import { formatMailDateTime } from '../../shared/display-formats';
import { DOMAIN_MESSAGES as M, DOMAIN_RECORD_GRACE_DAYS, domainTxtName } from '../../shared/identity/domains';
import { PRODUCT_NAME } from '../../shared/messages';
import { organisationAdministrators } from '../../platform/database/organisation-administrators';
import { DnsTxtResolver } from './dns-txt.resolver';
import { OrganisationDomain } from './entities/organisation-domain.entity';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Domains looked up per run: a run every hour covers thousands of domains a day without a burst of DNS queries. */
const PER_RUN = 200;
const FIRST_RUN_DELAY_MS = 5 * 60_000;

/** What one run did, for the log and the tests. */
export interface RecheckReport {
  checked: number;
  missing: number;
  unverified: number;
  restored: number;
}

/**
 * A verified domain stays verified only while its TXT record stays published: every DOMAIN_RECHECK_HOURS it is
 * looked up again. A missing record starts a grace period of DOMAIN_RECORD_GRACE_DAYS (the organisation's
 * administrators are told at once, and can publish it again); at its end the domain is no longer verified, so
 * a domain that changed hands stops letting its old owner's provider sign in its addresses. A lookup DNS does
 * not answer counts for nothing. Each due domain is claimed by a conditional update, so with several instances
 * each domain is looked up by one of them.
 */
@Injectable()
export class DomainRecheckService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DomainRecheck');
  private stop?: () => void;

  constructor(
    @InjectRepository(OrganisationDomain) private readonly domains: Repository<OrganisationDomain>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dns: DnsTxtResolver,
    private readonly audit: AuditService,
    private readonly mail: MailService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.domainRecheckHours === 0) return;
    this.stop = runPeriodically(() => this.recheckDue(), {
      firstDelayMs: FIRST_RUN_DELAY_MS,
      everyMs: HOUR_MS,
      logger: this.logger,
      what: 'Domain re-verification',
    });
  }

  onApplicationShutdown(): void {
    this.stop?.();
    this.stop = undefined;
  }

  /** Looks up the verified domains whose last check (or verification) is older than DOMAIN_RECHECK_HOURS. */
  async recheckDue(now = new Date()): Promise<RecheckReport> {
    const report: RecheckReport = { checked: 0, missing: 0, unverified: 0, restored: 0 };
    if (this.config.domainRecheckHours === 0) return report;
    const dueBefore = new Date(now.getTime() - this.config.domainRecheckHours * HOUR_MS);
    const due = await this.domains
      .createQueryBuilder('d')
      .where('d.verifiedDomain IS NOT NULL')
      .andWhere(
        new Brackets((w) =>
          w.where('d.checkedAt IS NULL AND d.verifiedAt < :dueBefore').orWhere('d.checkedAt < :dueBefore'),
        ),
        { dueBefore },
      )
      .orderBy('d.id', 'ASC')
      .take(PER_RUN)
      .getMany();
    for (const domain of due) {
      if (!(await this.claim(domain, now, dueBefore))) continue;
      report.checked++;
      const outcome = await this.check(domain, now);
      if (outcome !== 'present' && outcome !== 'unknown') report[outcome]++;
    }
    if (report.missing + report.unverified + report.restored > 0)
      this.logger.log(
        `Re-verified ${report.checked} domain(s): ${report.missing} record(s) missing, ${report.unverified} no longer verified, ${report.restored} restored`,
      );
    return report;
  }

  /** Marks the domain checked now, unless another instance did since it was read. */
  private async claim(d: OrganisationDomain, now: Date, dueBefore: Date): Promise<boolean> {
    const result = await this.domains
      .createQueryBuilder()
      .update(OrganisationDomain)
      .set({ checkedAt: now })
      .where('id = :id', { id: d.id })
      .andWhere('("checkedAt" IS NULL OR "checkedAt" < :dueBefore)', { dueBefore })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  private async check(
    d: OrganisationDomain,
    now: Date,
  ): Promise<'present' | 'unknown' | 'missing' | 'unverified' | 'restored'> {
    const lookup = await this.dns.txt(domainTxtName(d.domain));
    if (lookup.kind === 'unavailable') return 'unknown';
    if (lookup.kind === 'found' && lookup.values.includes(d.txtValue)) {
      if (!d.recordMissingSince) return 'present';
      await this.domains.update({ id: d.id, verifiedDomain: Not(IsNull()) }, { recordMissingSince: null });
      return 'restored';
    }
    if (!d.recordMissingSince) {
      await this.domains.manager.transaction(async (tx) => {
        const updated = await tx
          .getRepository(OrganisationDomain)
          .update(
            { id: d.id, verifiedDomain: Not(IsNull()), recordMissingSince: IsNull() },
            { recordMissingSince: now },
          );
        if (!updated.affected) return;
        const trustedUntil = new Date(now.getTime() + DOMAIN_RECORD_GRACE_DAYS * DAY_MS);
        const until = trustedUntil.toISOString().slice(0, 10);
        await this.audit.record(tx, {
          type: 'DOMAIN_RECORD_MISSING',
          actor: 'service',
          organisationId: d.organisationId,
          summary: `The TXT record of ${d.domain} was not found; it stays verified until ${until}`,
        });
        await this.tellAdministrators(tx, d.organisationId, {
          subject: `${PRODUCT_NAME}: the DNS record of ${d.domain} is missing`,
          text:
            `${M.RECORD_MISSING(d.domain, formatMailDateTime(trustedUntil, this.config.insightsTimeZone))}\n\n` +
            `The record to publish: ${domainTxtName(d.domain)} TXT "${d.txtValue}"\n\n` +
            `See it on the Single Sign-On page: ${this.config.publicUrl}/users/sso`,
        });
      });
      return 'missing';
    }
    if (now.getTime() - new Date(d.recordMissingSince).getTime() < DOMAIN_RECORD_GRACE_DAYS * DAY_MS) return 'present';
    let unverified = false;
    await this.domains.manager.transaction(async (tx) => {
      const updated = await tx
        .getRepository(OrganisationDomain)
        .update(
          { id: d.id, verifiedDomain: Not(IsNull()) },
          { verifiedDomain: null, verifiedAt: null, recordMissingSince: null, checkedAt: null },
        );
      if (!updated.affected) return;
      unverified = true;
      await this.audit.record(tx, {
        type: 'DOMAIN_UNVERIFIED',
        actor: 'service',
        organisationId: d.organisationId,
        summary: `Domain ${d.domain} no longer verified: its TXT record has been missing for ${DOMAIN_RECORD_GRACE_DAYS} days`,
        changes: { verified: { from: true, to: false } },
      });
      await this.tellAdministrators(tx, d.organisationId, {
        subject: `${PRODUCT_NAME}: ${d.domain} is no longer verified`,
        text:
          `The TXT record of ${d.domain} has been missing for ${DOMAIN_RECORD_GRACE_DAYS} days, so ${d.domain} is no longer ` +
          'verified: corporate sign-in no longer trusts addresses of this domain, and the login card no longer sends them ' +
          'to your identity provider.\n\n' +
          `To verify it again, publish ${domainTxtName(d.domain)} TXT "${d.txtValue}" and press Verify on the ` +
          `Single Sign-On page: ${this.config.publicUrl}/users/sso`,
      });
    });
    return unverified ? 'unverified' : 'present';
  }

  /** The organisation's site admins and administrators, in the same transaction as the change they hear of. */
  private async tellAdministrators(tx: EntityManager, organisationId: number, mail: { subject: string; text: string }) {
    const admins = await organisationAdministrators(tx, organisationId);
    for (const admin of admins) await this.mail.send({ to: admin.email, ...mail }, tx);
  }
}
