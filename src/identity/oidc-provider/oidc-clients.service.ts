import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, isSupport, managedOrganisationId } from '../../platform/web/auth-user';
import { encrypt, randomToken } from '../../platform/crypto/secrets';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { lockRow } from '../../platform/database/locks';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import {
  NewOidcClient,
  OIDC_CLIENT_MESSAGES,
  OIDC_CLIENTS_MAX,
  OidcClientItem,
  RotatedOidcClientSecret,
} from '../../shared/identity/oidc-clients';
import { CreateOidcClientDto, UpdateOidcClientDto } from './dto/oidc-client.dto';
import { OidcClient } from './entities/oidc-client.entity';
import { revokeClientRecords } from './oidc-adapter';
import { checkLogoutUri, checkRedirectUri } from './redirect-uris';

/**
 * The applications registered with the portal's OpenID provider (docs/oidc-provider.md): E-Support registers the
 * deployment's own (no organisation) and any organisation's (`?organisationId=`), a site admin its own
 * organisation's. A confidential application's secret is shown once and kept sealed. Every change is audited (and
 * told to the organisation's webhooks as oidc_client.*); removing an application revokes all it holds at once.
 */
@Injectable()
export class OidcClientsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  /**
   * The organisation a call works on: null for the deployment's applications (E-Support without organisationId),
   * else the caller's own, or the one E-Support names; never the vendor's own organisation.
   */
  private async scopeOf(caller: AuthUser, organisationId?: number): Promise<number | null> {
    if (isSupport(caller) && organisationId === undefined) return null;
    const org = await this.db
      .getRepository(Organisation)
      .findOneBy({ id: managedOrganisationId(caller, organisationId) });
    if (!org) throw AppException.notFound('Organisation not found.');
    if (org.isVendor) throw AppException.badRequest(OIDC_CLIENT_MESSAGES.VENDOR_NO_CLIENTS);
    return org.id;
  }

  /** An application the caller may manage: the deployment's for E-Support, an organisation's for its site admin. */
  private async owned(caller: AuthUser, id: number): Promise<OidcClient> {
    const row = await this.db.getRepository(OidcClient).findOneBy({ id });
    const allowed =
      row && (isSupport(caller) || (row.organisationId !== null && row.organisationId === caller.organisationId));
    if (!row || !allowed) throw AppException.notFound(OIDC_CLIENT_MESSAGES.NOT_FOUND);
    return row;
  }

  async list(caller: AuthUser, organisationId?: number): Promise<OidcClientItem[]> {
    const scope = await this.scopeOf(caller, organisationId);
    const rows = await this.db.getRepository(OidcClient).find({
      where: { organisationId: scope === null ? IsNull() : scope },
      order: { id: 'ASC' },
    });
    return rows.map(toItem);
  }

  async create(
    caller: AuthUser,
    dto: CreateOidcClientDto,
    organisationId: number | undefined,
    client: RequestContext,
  ): Promise<NewOidcClient> {
    const scope = await this.scopeOf(caller, organisationId);
    const uris = this.uris(dto.type, dto);
    const secret = dto.type === 'confidential' ? randomToken() : undefined;
    const saved = await this.db.transaction(async (tx) => {
      // Parallel registrations queue on the organisation's row, so the count each sees includes the others'.
      if (scope !== null) await lockRow(tx, Organisation, scope);
      const repo = tx.getRepository(OidcClient);
      if ((await repo.countBy({ organisationId: scope === null ? IsNull() : scope })) >= OIDC_CLIENTS_MAX)
        throw AppException.conflict(OIDC_CLIENT_MESSAGES.TOO_MANY_CLIENTS);
      const row = await repo.save(
        repo.create({
          clientId: `app_${randomBytes(12).toString('hex')}`,
          organisationId: scope,
          name: dto.name,
          type: dto.type,
          redirectUris: uris.redirectUris!,
          postLogoutRedirectUris: uris.postLogoutRedirectUris ?? [],
          backchannelLogoutUri: uris.backchannelLogoutUri ?? null,
          secretSealed: secret ? encrypt(secret, this.config.encryptionKey) : null,
          createdBy: caller.email,
        }),
      );
      await this.record(
        tx,
        caller,
        row,
        'OIDC_CLIENT_CREATED',
        `Application "${row.name}" (${row.type}) registered`,
        client,
      );
      return row;
    });
    const item = toItem(await this.db.getRepository(OidcClient).findOneByOrFail({ id: saved.id }));
    return secret ? { ...item, clientSecret: secret } : item;
  }

  async update(
    caller: AuthUser,
    id: number,
    dto: UpdateOidcClientDto,
    client: RequestContext,
  ): Promise<OidcClientItem> {
    const row = await this.owned(caller, id);
    const uris = this.uris(row.type, dto);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const next: Partial<OidcClient> = {};
    if (dto.name !== undefined && dto.name !== row.name) {
      changes.name = { from: row.name, to: dto.name };
      next.name = dto.name;
    }
    for (const field of ['redirectUris', 'postLogoutRedirectUris'] as const) {
      const value = uris[field];
      if (value !== undefined && JSON.stringify(value) !== JSON.stringify(row[field])) {
        changes[field] = { from: row[field], to: value };
        next[field] = value;
      }
    }
    if (uris.backchannelLogoutUri !== undefined && uris.backchannelLogoutUri !== row.backchannelLogoutUri) {
      changes.backchannelLogoutUri = { from: row.backchannelLogoutUri, to: uris.backchannelLogoutUri };
      next.backchannelLogoutUri = uris.backchannelLogoutUri;
    }
    if (Object.keys(next).length > 0) {
      await this.db.transaction(async (tx) => {
        await tx.getRepository(OidcClient).update({ id }, next);
        await this.record(tx, caller, row, 'OIDC_CLIENT_CHANGED', `Application "${row.name}" changed`, client, changes);
      });
    }
    return toItem(await this.db.getRepository(OidcClient).findOneByOrFail({ id }));
  }

  /** A new secret, shown this once; the previous one stops at once (tokens already issued stay valid). */
  async rotateSecret(caller: AuthUser, id: number, client: RequestContext): Promise<RotatedOidcClientSecret> {
    const row = await this.owned(caller, id);
    if (row.type !== 'confidential') throw AppException.badRequest(OIDC_CLIENT_MESSAGES.PUBLIC_NO_SECRET);
    const secret = randomToken();
    await this.db.transaction(async (tx) => {
      await tx.getRepository(OidcClient).update({ id }, { secretSealed: encrypt(secret, this.config.encryptionKey) });
      await this.record(tx, caller, row, 'OIDC_CLIENT_SECRET_ROTATED', `Application "${row.name}": new secret`, client);
    });
    return { clientSecret: secret };
  }

  /** Removes the application; every code, token and grant it holds, and every consent to it, goes with it. */
  async remove(caller: AuthUser, id: number, client: RequestContext): Promise<{ success: true }> {
    const row = await this.owned(caller, id);
    await this.db.transaction(async (tx) => {
      const deleted = await tx.getRepository(OidcClient).delete({ id });
      if (!deleted.affected) throw AppException.notFound(OIDC_CLIENT_MESSAGES.NOT_FOUND);
      await this.record(tx, caller, row, 'OIDC_CLIENT_REMOVED', `Application "${row.name}" removed`, client);
    });
    await revokeClientRecords(this.db, row.clientId);
    return { success: true };
  }

  /** The addresses of a request, each checked; those left out stay undefined. */
  private uris(
    type: OidcClient['type'],
    dto: Pick<CreateOidcClientDto, 'postLogoutRedirectUris' | 'backchannelLogoutUri'> & { redirectUris?: string[] },
  ): Partial<Pick<OidcClient, 'redirectUris' | 'postLogoutRedirectUris' | 'backchannelLogoutUri'>> {
    const allow = this.config.allowPrivateNetworks;
    return {
      redirectUris: dto.redirectUris?.map((u) => checkRedirectUri(u, type, allow)),
      postLogoutRedirectUris: dto.postLogoutRedirectUris?.map((u) => checkRedirectUri(u, type, allow)),
      backchannelLogoutUri:
        dto.backchannelLogoutUri === undefined || dto.backchannelLogoutUri === null
          ? dto.backchannelLogoutUri
          : checkLogoutUri(dto.backchannelLogoutUri, allow),
    };
  }

  private record(
    tx: EntityManager,
    caller: AuthUser,
    row: OidcClient,
    type: 'OIDC_CLIENT_CREATED' | 'OIDC_CLIENT_CHANGED' | 'OIDC_CLIENT_SECRET_ROTATED' | 'OIDC_CLIENT_REMOVED',
    summary: string,
    client: RequestContext,
    changes?: Record<string, { from: unknown; to: unknown }>,
  ): Promise<unknown> {
    return this.audit.record(tx, {
      type,
      actor: caller,
      organisationId: row.organisationId ?? caller.organisationId,
      client,
      summary,
      ...(changes ? { changes } : {}),
    });
  }
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function toItem(c: OidcClient): OidcClientItem {
  return {
    id: c.id,
    clientId: c.clientId,
    name: c.name,
    type: c.type,
    redirectUris: c.redirectUris,
    postLogoutRedirectUris: c.postLogoutRedirectUris,
    backchannelLogoutUri: c.backchannelLogoutUri,
    organisationId: c.organisationId,
    createdAt: iso(c.createdAt)!,
    lastUsedAt: iso(c.lastUsedAt),
  };
}
