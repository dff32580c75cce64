import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService, AuditTokenActor } from '../../platform/audit';
import { AuthUser } from '../../platform/web/auth-user';
import { IssuedSecrets } from '../../platform/issued-secrets/issued-secrets';
import { RequestContext } from '../../platform/web/request-context';
import { ScimCaller } from '../../platform/web/scim-caller';
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
  private readonly issued: IssuedSecrets<ScimToken>;

  constructor(
    @InjectRepository(ScimToken) private readonly tokens: Repository<ScimToken>,
    @InjectRepository(Organisation) organisations: Repository<Organisation>,
    private readonly audit: AuditService,
  ) {
    this.issued = new IssuedSecrets(tokens, organisations, {
      prefix: TOKEN_PREFIX,
      max: SCIM_TOKENS_MAX,
      messages: {
        vendor: SCIM_MESSAGES.VENDOR_NO_TOKENS,
        tooMany: SCIM_MESSAGES.TOO_MANY_TOKENS,
        notFound: SCIM_MESSAGES.TOKEN_NOT_FOUND,
      },
    });
  }

  async list(caller: AuthUser, organisationId?: number): Promise<ScimTokenItem[]> {
    const org = await this.issued.organisationFor(caller, organisationId);
    return (await this.issued.list(org)).map(toItem);
  }

  async create(
    caller: AuthUser,
    name: string,
    organisationId: number | undefined,
    client: RequestContext,
  ): Promise<NewScimToken> {
    const org = await this.issued.organisationFor(caller, organisationId);
    const { row, secret } = await this.issued.issue(
      org,
      (_secret, hash) => ({ name, tokenHash: hash, createdBy: caller.email }),
      (tx) =>
        this.audit.record(tx, {
          type: 'SCIM_TOKEN_CREATED',
          actor: caller,
          organisationId: org.id,
          client,
          summary: `Provisioning token "${name}" created`,
        }),
    );
    return { id: row.id, name: row.name, token: secret };
  }

  async revoke(caller: AuthUser, id: number, client: RequestContext): Promise<{ success: true }> {
    await this.issued.revoke(caller, id, (tx, row) =>
      this.audit.record(tx, {
        type: 'SCIM_TOKEN_REVOKED',
        actor: caller,
        organisationId: row.organisationId,
        client,
        summary: `Provisioning token "${row.name}" revoked`,
      }),
    );
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
