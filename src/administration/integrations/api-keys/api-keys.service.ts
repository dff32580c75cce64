import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation, managedOrganisationId } from '../../../platform/web/auth-user';
import { randomToken, sha256 } from '../../../platform/crypto/secrets';
import { RequestContext } from '../../../platform/web/request-context';
import { parseScopes } from '../../../identity/credentials/api-key-auth.service';
import { lockRow } from '../../../platform/database/locks';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  API_KEY_SHOWN_PREFIX_LENGTH,
  API_KEYS_MAX,
  ApiKeyItem,
  NewApiKey,
} from '../../../shared/administration/api-keys';
import { CreateApiKeyDto } from './dto/api-key.dto';
import { ApiKey } from './entities/api-key.entity';

/** An organisation's API keys: created (the key shown once, its SHA-256 kept), listed, revoked; each change audited. */
@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
  ) {}

  /** The organisation the caller manages keys of: their own, or (E-Support) the one named; never the vendor's. */
  private async organisationFor(caller: AuthUser, organisationId?: number): Promise<Organisation> {
    const org = await this.organisations.findOneBy({ id: managedOrganisationId(caller, organisationId) });
    if (!org) throw AppException.notFound('Organisation not found.');
    if (org.isVendor) throw AppException.badRequest(API_KEY_MESSAGES.VENDOR_NO_KEYS);
    return org;
  }

  async list(caller: AuthUser, organisationId?: number): Promise<ApiKeyItem[]> {
    const org = await this.organisationFor(caller, organisationId);
    const rows = await this.keys.find({ where: { organisationId: org.id }, order: { id: 'ASC' } });
    return rows.map(toItem);
  }

  async create(
    caller: AuthUser,
    dto: CreateApiKeyDto,
    organisationId: number | undefined,
    client: RequestContext,
  ): Promise<NewApiKey> {
    const org = await this.organisationFor(caller, organisationId);
    const expiresAt = dto.expiresAt === undefined ? null : new Date(dto.expiresAt);
    if (expiresAt && !(expiresAt.getTime() > Date.now()))
      throw AppException.badRequest(API_KEY_MESSAGES.EXPIRY_INVALID);
    const key = `${API_KEY_PREFIX}${randomToken()}`;
    // Kept in the order of API_KEY_SCOPES, whatever the order asked.
    const scopes = API_KEY_SCOPES.filter((s) => dto.scopes.includes(s));
    const saved = await this.keys.manager.transaction(async (tx) => {
      // The organisation's lock: parallel creations queue, so the count each sees includes the others'.
      await lockRow(tx, Organisation, org.id);
      if ((await tx.getRepository(ApiKey).countBy({ organisationId: org.id })) >= API_KEYS_MAX)
        throw AppException.conflict(API_KEY_MESSAGES.TOO_MANY_KEYS);
      const repo = tx.getRepository(ApiKey);
      const row = await repo.save(
        repo.create({
          organisationId: org.id,
          name: dto.name,
          prefix: key.slice(0, API_KEY_SHOWN_PREFIX_LENGTH),
          keyHash: sha256(key),
          scopes: scopes.join(' '),
          createdBy: caller.email,
          expiresAt,
        }),
      );
      await this.audit.record(tx, {
        type: 'API_KEY_CREATED',
        actor: caller,
        organisationId: org.id,
        client,
        summary: `API key "${dto.name}" created with ${scopes.join(', ')}`,
      });
      return row;
    });
    const item = toItem(await this.keys.findOneByOrFail({ id: saved.id }));
    return {
      id: item.id,
      name: item.name,
      key,
      prefix: item.prefix,
      scopes: item.scopes,
      createdAt: item.createdAt,
      expiresAt: item.expiresAt,
    };
  }

  async revoke(caller: AuthUser, id: number, client: RequestContext): Promise<{ success: true }> {
    const row = await this.keys.findOneBy({ id });
    if (!row || !canAccessOrganisation(caller, row.organisationId))
      throw AppException.notFound(API_KEY_MESSAGES.NOT_FOUND);
    await this.keys.manager.transaction(async (tx) => {
      const deleted = await tx.getRepository(ApiKey).delete({ id });
      if (!deleted.affected) throw AppException.notFound(API_KEY_MESSAGES.NOT_FOUND);
      await this.audit.record(tx, {
        type: 'API_KEY_REVOKED',
        actor: caller,
        organisationId: row.organisationId,
        client,
        summary: `API key "${row.name}" revoked`,
      });
    });
    return { success: true };
  }
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

function toItem(k: ApiKey): ApiKeyItem {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: parseScopes(k.scopes),
    organisationId: k.organisationId,
    createdAt: iso(k.createdAt)!,
    createdBy: k.createdBy,
    expiresAt: iso(k.expiresAt),
    lastUsedAt: iso(k.lastUsedAt),
  };
}
