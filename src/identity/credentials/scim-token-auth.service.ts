import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScimCaller } from '../../platform/web/scim-caller';
import { AppException } from '../../platform/web/app.exception';
import { sha256 } from '../../platform/crypto/secrets';
import { positional, readDate } from '../../platform/database/raw-sql';
import { SCIM_MESSAGES } from '../../shared/identity/scim';
import { bearer } from './token.service';

/** Provisioning tokens are random 32 bytes; anything far longer is not one and is not hashed. */
const TOKEN_MAX_LENGTH = 200;

/**
 * The one check of a provisioning token: its hash looked up in the database on every call, so that a token revoked
 * through any instance is refused by every instance on its very next call (one indexed read).
 */
@Injectable()
export class ScimTokenAuthService {
  private readonly sql: string;

  constructor(private readonly db: DataSource) {
    this.sql = positional(
      db,
      'SELECT t."id", t."name", t."organisationId", t."lastUsedAt" FROM "scim_tokens" t WHERE t."tokenHash" = ?',
    );
  }

  async authenticateHeader(authorization: string | undefined): Promise<ScimCaller> {
    const token = bearer(authorization);
    if (!token || token.length > TOKEN_MAX_LENGTH) throw AppException.unauthorized(SCIM_MESSAGES.TOKEN_INVALID);
    const rows = (await this.db.query(this.sql, [sha256(token)])) as Array<{
      id: number;
      name: string;
      organisationId: number;
      lastUsedAt: string | Date | null;
    }>;
    const row = rows[0];
    if (!row) throw AppException.unauthorized(SCIM_MESSAGES.TOKEN_INVALID);
    return {
      tokenId: Number(row.id),
      tokenName: row.name,
      organisationId: Number(row.organisationId),
      lastUsedAt: row.lastUsedAt === null ? null : readDate(row.lastUsedAt),
    };
  }
}
