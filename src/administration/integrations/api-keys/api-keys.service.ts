import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { AuthUser } from '../../../platform/web/auth-user';
import { IssuedSecrets } from '../../../platform/issued-secrets/issued-secrets';
import { RequestContext } from '../../../platform/web/request-context';
import { parseScopes } from '../../../identity/credentials/api-key-auth.service';
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
  private readonly keys: IssuedSecrets<ApiKey>;

  constructor(
    @InjectRepository(ApiKey) keys: Repository<ApiKey>,
    @InjectRepository(Organisation) organisations: Repository<Organisation>,
    private readonly audit: AuditService,
  ) {
    this.keys = new IssuedSecrets(keys, organisations, {
      prefix: API_KEY_PREFIX,
      max: API_KEYS_MAX,
      messages: {
        vendor: API_KEY_MESSAGES.VENDOR_NO_KEYS,
        tooMany: API_KEY_MESSAGES.TOO_MANY_KEYS,
        notFound: API_KEY_MESSAGES.NOT_FOUND,
      },
    });
  }

  async list(caller: AuthUser, organisationId?: number): Promise<ApiKeyItem[]> {
    const org = await this.keys.organisationFor(caller, organisationId);
    return (await this.keys.list(org)).map(toItem);
  }

  async create(
    caller: AuthUser,
    dto: CreateApiKeyDto,
    organisationId: number | undefined,
    client: RequestContext,
  ): Promise<NewApiKey> {
    const org = await this.keys.organisationFor(caller, organisationId);
    const expiresAt = dto.expiresAt === undefined ? null : new Date(dto.expiresAt);
    if (expiresAt && !(expiresAt.getTime() > Date.now()))
      throw AppException.badRequest(API_KEY_MESSAGES.EXPIRY_INVALID);
    // Kept in the order of API_KEY_SCOPES, whatever the order asked.
    const scopes = API_KEY_SCOPES.filter((s) => dto.scopes.includes(s));
    const { row, secret: key } = await this.keys.issue(
      org,
      (secret, hash) => ({
        name: dto.name,
        prefix: secret.slice(0, API_KEY_SHOWN_PREFIX_LENGTH),
        keyHash: hash,
        scopes: scopes.join(' '),
        createdBy: caller.email,
        expiresAt,
      }),
      (tx) =>
        this.audit.record(tx, {
          type: 'API_KEY_CREATED',
          actor: caller,
          organisationId: org.id,
          client,
          summary: `API key "${dto.name}" created with ${scopes.join(', ')}`,
        }),
    );
    const item = toItem(await this.keys.read(row.id));
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
    await this.keys.revoke(caller, id, (tx, row) =>
      this.audit.record(tx, {
        type: 'API_KEY_REVOKED',
        actor: caller,
        organisationId: row.organisationId,
        client,
        summary: `API key "${row.name}" revoked`,
      }),
    );
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
