import { DeepPartial, EntityManager, FindOptionsOrder, FindOptionsWhere, Repository } from 'typeorm';
import { randomToken, sha256 } from '../crypto/secrets';
import { lockRow } from '../database/locks';
import { Organisation } from '../database/entities/organisation.entity';
import { AppException } from '../web/app.exception';
import { AuthUser, canAccessOrganisation, managedOrganisationId } from '../web/auth-user';
import { IssuedSecretColumns } from './issued-secret.columns';

/** What tells one kind of issued secret from another: its prefix, how many an organisation holds, its refusals. */
export interface IssuedSecretRules {
  /** Marks the secret in a header, a log or a secret scanner's findings. */
  prefix: string;
  /** How many an organisation holds at once. */
  max: number;
  messages: {
    /** The vendor organisation issues none. */
    vendor: string;
    tooMany: string;
    notFound: string;
  };
}

/** Writes a change's audit event inside its transaction. */
export type AuditedIn<T> = (tx: EntityManager, row: T) => Promise<void>;

/**
 * An organisation's issued secrets of one kind (API keys, provisioning tokens): created (the secret shown once, its
 * SHA-256 kept) under the organisation's lock so that parallel creations count each other, listed, revoked; each
 * change audited in its transaction by the feature, which words its own event.
 */
export class IssuedSecrets<T extends IssuedSecretColumns> {
  constructor(
    private readonly rows: Repository<T>,
    private readonly organisations: Repository<Organisation>,
    private readonly rules: IssuedSecretRules,
  ) {}

  /** The organisation the caller manages secrets of: their own, or (E-Support) the one named; never the vendor's. */
  async organisationFor(caller: AuthUser, organisationId?: number): Promise<Organisation> {
    const org = await this.organisations.findOneBy({ id: managedOrganisationId(caller, organisationId) });
    if (!org) throw AppException.notFound('Organisation not found.');
    if (org.isVendor) throw AppException.badRequest(this.rules.messages.vendor);
    return org;
  }

  /** The organisation's secrets, oldest first. */
  list(org: Organisation): Promise<T[]> {
    return this.rows.find({
      where: { organisationId: org.id } as FindOptionsWhere<T>,
      order: { id: 'ASC' } as FindOptionsOrder<T>,
    });
  }

  /** One by id, as stored now (with its database defaults). */
  read(id: number): Promise<T> {
    return this.rows.findOneByOrFail({ id } as FindOptionsWhere<T>);
  }

  /**
   * A new secret of the organisation: `fields` are the row's own columns, given the secret and its hash. Refused
   * with 409 when the organisation holds `max` already. Answers the saved row and the secret, which is never kept.
   */
  async issue(
    org: Organisation,
    fields: (secret: string, hash: string) => DeepPartial<T>,
    audited: AuditedIn<T>,
  ): Promise<{ row: T; secret: string }> {
    const secret = `${this.rules.prefix}${randomToken()}`;
    const row = await this.rows.manager.transaction(async (tx) => {
      // The organisation's lock: parallel creations queue, so the count each sees includes the others'.
      await lockRow(tx, Organisation, org.id);
      const repo = tx.getRepository<T>(this.rows.target);
      if ((await repo.countBy({ organisationId: org.id } as FindOptionsWhere<T>)) >= this.rules.max)
        throw AppException.conflict(this.rules.messages.tooMany);
      const saved = await repo.save(
        repo.create({ organisationId: org.id, ...fields(secret, sha256(secret)) } as DeepPartial<T>),
      );
      await audited(tx, saved);
      return saved;
    });
    return { row, secret };
  }

  /** Deletes one, 404 when the caller may not see it or it is gone. */
  async revoke(caller: AuthUser, id: number, audited: AuditedIn<T>): Promise<void> {
    const row = await this.rows.findOneBy({ id } as FindOptionsWhere<T>);
    if (!row || !canAccessOrganisation(caller, row.organisationId))
      throw AppException.notFound(this.rules.messages.notFound);
    await this.rows.manager.transaction(async (tx) => {
      const deleted = await tx.getRepository<T>(this.rows.target).delete({ id } as FindOptionsWhere<T>);
      if (!deleted.affected) throw AppException.notFound(this.rules.messages.notFound);
      await audited(tx, row);
    });
  }
}
