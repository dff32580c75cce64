import { DataSource, In, IsNull, LessThan } from 'typeorm';
import { decrypt } from '../../platform/crypto/secrets';
import { OidcClient } from './entities/oidc-client.entity';
import { OidcRecord } from './entities/oidc-record.entity';
import { OidcSessionLink } from './entities/oidc-session-link.entity';
import { errors } from 'oidc-provider';

/** What oidc-provider stores through an adapter: a JSON object with optional look-up fields. */
export type AdapterPayload = Record<string, unknown> & {
  grantId?: string;
  userCode?: string;
  uid?: string;
  consumed?: unknown;
};

/** oidc-provider's Adapter interface (its documentation's "adapter" section), one instance per model name. */
export interface OidcAdapter {
  upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
  find(id: string): Promise<AdapterPayload | undefined>;
  findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
  findByUid(uid: string): Promise<AdapterPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** The models whose records belong to a grant: revoking the grant deletes them all. */
export const GRANT_BOUND_MODELS = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
];

/** A registered application as the provider reads it (client metadata, RFC 7591 names). */
export function clientMetadata(c: OidcClient, encryptionKey: Buffer): AdapterPayload {
  const confidential = c.type === 'confidential';
  return {
    client_id: c.clientId,
    client_name: c.name,
    ...(confidential && c.secretSealed ? { client_secret: decrypt(c.secretSealed, encryptionKey) } : {}),
    application_type: 'web',
    redirect_uris: c.redirectUris,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    ...(c.backchannelLogoutUri
      ? { backchannel_logout_uri: c.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
    organisation_id: c.organisationId,
  };
}

/**
 * The provider's storage over the product's database: every instance reads and writes the same rows, so a code
 * issued by one is exchanged at another, and a token revoked on one is refused by all. Registered applications
 * (model `Client`) are read from `oidc_clients`; every other model is a row of `oidc_records`. An expired record is
 * never answered (and deleted by the provider's sweep).
 */
export function databaseAdapter(db: DataSource, encryptionKey: Buffer): new (model: string) => OidcAdapter {
  const records = () => db.getRepository(OidcRecord);

  const answer = (row: OidcRecord | null): AdapterPayload | undefined => {
    if (!row) return undefined;
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  };

  return class DatabaseAdapter implements OidcAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.model === 'Client') throw new Error('Applications are registered through /api/oidc-clients');
      const row = {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        clientId: typeof payload.clientId === 'string' ? payload.clientId.slice(0, 64) : null,
        accountId: typeof payload.accountId === 'string' ? payload.accountId.slice(0, 20) : null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        consumedAt: null,
      };
      await records().upsert(row, ['model', 'id']);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') {
        const c = await db.getRepository(OidcClient).findOneBy({ clientId: id });
        return c ? clientMetadata(c, encryptionKey) : undefined;
      }
      return answer(await records().findOneBy({ model: this.model, id }));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return answer(await records().findOneBy({ model: this.model, userCode }));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return answer(await records().findOneBy({ model: this.model, uid }));
    }

    /**
     * Marks a single-use record (a code, a refresh token being rotated) used, once, by a conditional update: of two
     * requests using it at the same moment, on one instance or two, one wins. The other is a reuse, answered as the
     * library answers one that comes later: the grant is revoked (the winner's tokens too) and the request refused.
     */
    async consume(id: string): Promise<void> {
      const won = await records().update({ model: this.model, id, consumedAt: IsNull() }, { consumedAt: new Date() });
      if (won.affected) return;
      const row = await records().findOneBy({ model: this.model, id });
      if (row?.grantId) await revokeGrants(db, [row.grantId]);
      throw new errors.InvalidGrant(`${this.model === 'RefreshToken' ? 'refresh token' : 'grant'} already used`);
    }

    async destroy(id: string): Promise<void> {
      await records().delete({ model: this.model, id });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await records().delete({ model: this.model, grantId });
    }
  };
}

/** Deletes every record of these grants, the grants included (an application removed, consent withdrawn, logout). */
export async function revokeGrants(db: DataSource, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  // Refused from now on by findAccount too, whatever a racing request saves after this.
  await db
    .getRepository(OidcSessionLink)
    .update({ grantId: In(grantIds), loggedOutAt: IsNull() }, { loggedOutAt: new Date() });
  await db.getRepository(OidcRecord).delete({ model: In(GRANT_BOUND_MODELS), grantId: In(grantIds) });
  await db.getRepository(OidcRecord).delete({ model: 'Grant', id: In(grantIds) });
}

/**
 * Deletes every code, token and grant of an application, or of one account at it: they stop working at once on every
 * instance (an application removed, a member withdrawing their consent).
 */
export async function revokeClientRecords(db: DataSource, clientId: string, accountId?: string): Promise<void> {
  await db.getRepository(OidcRecord).delete({ clientId, ...(accountId !== undefined ? { accountId } : {}) });
}

/** Deletes records expired before `before`, at most `limit` of them; answers how many. */
export async function deleteExpiredRecords(db: DataSource, before: Date, limit: number): Promise<number> {
  const rows = await db.getRepository(OidcRecord).find({
    select: { model: true, id: true },
    where: { expiresAt: LessThan(before) },
    take: limit,
  });
  for (const r of rows) await db.getRepository(OidcRecord).delete({ model: r.model, id: r.id });
  return rows.length;
}
