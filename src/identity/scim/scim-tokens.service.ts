import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService, AuditTokenActor } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation, managedOrganisationId } from '../../platform/web/auth-user';
import { randomToken, sha256 } from '../../platform/crypto/secrets';
import { RequestContext } from '../../platform/web/request-context';
import { ScimCaller } from '../../platform/web/scim-caller';
import { lockRow } from '../../platform/database/locks';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { NewScimToken, SCIM_MESSAGES, SCIM_TOKENS_MAX, ScimTokenItem } from '../../shared/identity/scim';
import { ScimToken } from './entities/scim-token.entity';

/** A use of a token is written (lastUsedAt, an audit event) at most once in this long. */
export const TOKEN_USE_RECORD_MS = 60_000;

/** Marks a provisioning token in the hands of the directory (and of secret scanners). */
const TOKEN_PREFIX = 'scim_';

export function tokenActor(scim: ScimCaller): AuditTokenActor {
  return { kind: 'scim-token', tokenId: scim.tokenId, tokenName: scim.tokenName, organisationId: scim.organisationId };
}

/** An organisation's provisioning tokens: created (shown once), listed, revoked; and their uses, recorded. */
@Injectable()
export class ScimTokensService {
  constructor(
    @InjectRepository(ScimToken) private readonly tokens: Repository<ScimToken>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
  ) {}

  /** The organisation the caller manages tokens of: their own, or (E-Support) the one named. */
  private async organisationFor(caller: AuthUser, organisationId?: number): Promise<Organisation> {
    const org = await this.organisations.findOneBy({ id: managedOrganisationId(caller, organisationId) });
    if (!org) throw AppException.notFound('Organisation not found.');
    if (org.isVendor) throw AppException.badRequest(SCIM_MESSAGES.VENDOR_NO_TOKENS);
    return org;
  }

  async list(caller: AuthUser, organisationId?: number): Promise<ScimTokenItem[]> {
    const org = await this.organisationFor(caller, organisationId);
    const rows = await this.tokens.find({ where: { organisationId: org.id }, order: { id: 'ASC' } });
    return rows.map(toItem);
  }

  async create(
    caller: AuthUser,
    name: string,
    organisationId: number | undefined,
    client: RequestContext,
  ): Promise<NewScimToken> {
    const org = await this.organisationFor(caller, organisationId);
    const token = `${TOKEN_PREFIX}${randomToken()}`;
    const saved = await this.tokens.manager.transaction(async (tx) => {
      // The organisation's lock: parallel creations queue, so the count each sees includes the others'.
      await lockRow(tx, Organisation, org.id);
      if ((await tx.getRepository(ScimToken).countBy({ organisationId: org.id })) >= SCIM_TOKENS_MAX)
        throw AppException.conflict(SCIM_MESSAGES.TOO_MANY_TOKENS);
      const row = await tx
        .getRepository(ScimToken)
        .save(
          tx
            .getRepository(ScimToken)
            .create({ organisationId: org.id, name, tokenHash: sha256(token), createdBy: caller.email }),
        );
      await this.audit.record(tx, {
        type: 'SCIM_TOKEN_CREATED',
        actor: caller,
        organisationId: org.id,
        client,
        summary: `Provisioning token "${name}" created`,
      });
      return row;
    });
    return { id: saved.id, name: saved.name, token };
  }

  async revoke(caller: AuthUser, id: number, client: RequestContext): Promise<{ success: true }> {
    const row = await this.tokens.findOneBy({ id });
    if (!row || !canAccessOrganisation(caller, row.organisationId))
      throw AppException.notFound(SCIM_MESSAGES.TOKEN_NOT_FOUND);
    await this.tokens.manager.transaction(async (tx) => {
      const deleted = await tx.getRepository(ScimToken).delete({ id });
      if (!deleted.affected) throw AppException.notFound(SCIM_MESSAGES.TOKEN_NOT_FOUND);
      await this.audit.record(tx, {
        type: 'SCIM_TOKEN_REVOKED',
        actor: caller,
        organisationId: row.organisationId,
        client,
        summary: `Provisioning token "${row.name}" revoked`,
      });
    });
    return { success: true };
  }

  /**
   * Records a call made with the token: its lastUsedAt and a 'used' audit event, at most once a minute per token
   * (a synchronisation makes thousands of calls). The conditional update decides, so two instances never both write.
   */
  async recordUse(scim: ScimCaller, client: RequestContext, now = new Date()): Promise<void> {
    const cutoff = new Date(now.getTime() - TOKEN_USE_RECORD_MS);
    if (scim.lastUsedAt && scim.lastUsedAt > cutoff) return;
    await this.tokens.manager.transaction(async (tx) => {
      const updated = await tx
        .createQueryBuilder()
        .update(ScimToken)
        .set({ lastUsedAt: now })
        .where('id = :id', { id: scim.tokenId })
        .andWhere('("lastUsedAt" IS NULL OR "lastUsedAt" < :cutoff)', { cutoff })
        .execute();
      if (!updated.affected) return;
      await this.audit.record(tx, {
        type: 'SCIM_TOKEN_USED',
        actor: tokenActor(scim),
        organisationId: scim.organisationId,
        client,
        summary: `Provisioning token "${scim.tokenName}" used`,
      });
    });
  }
}

function toItem(t: ScimToken): ScimTokenItem {
  return {
    id: t.id,
    name: t.name,
    organisationId: t.organisationId,
    createdAt: new Date(t.createdAt).toISOString(),
    createdBy: t.createdBy,
    lastUsedAt: t.lastUsedAt ? new Date(t.lastUsedAt).toISOString() : null,
  };
}
