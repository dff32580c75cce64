import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { sha256 } from '../../platform/crypto/secrets';
import { positional, readDate, storedDate } from '../../platform/database/raw-sql';
import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  API_KEY_USE_RECORD_MS,
  ApiKeyScope,
} from '../../shared/administration/api-keys';
import { BASE_ROLE, effectiveRoles } from '../../shared/roles';
import { policyRefusal, policyVerdict } from './access-policy';
import type { CallOrigin } from './session-auth.service';

/** Keys are the prefix and 32 random bytes; anything far longer is not one and is not hashed. */
const KEY_MAX_LENGTH = 100;

/** Whether a bearer credential is an organisation API key rather than an access token (a JWT never starts so). */
export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

interface Row {
  id: number;
  name: string;
  organisationId: number;
  scopes: string;
  expiresAt: string | Date | null;
  lastUsedAt: string | Date | null;
  organisationName: string;
  /** The organisation's allowed address ranges (simple-json text; '[]' when every address is allowed). */
  allowedIpRanges: string | string[];
}

/**
 * The one check of an organisation API key: the SHA-256 of the key looked up by its unique index on every call,
 * with no cache, so that a key revoked through any instance is refused by every instance on its very next call.
 * The organisation's policy holds for its keys as for its members (the one decision, policyVerdict): a call from
 * outside its allowed address ranges is 403 IP_NOT_ALLOWED; the session rules have nothing to apply to a key.
 * The caller it answers acts as an Administrator of the key's organisation (roles), within the key's scopes,
 * which the access guard compares with the route's.
 */
@Injectable()
export class ApiKeyAuthService {
  private readonly logger = new Logger(ApiKeyAuthService.name);
  private readonly sql: string;
  private readonly touchSql: string;

  constructor(private readonly db: DataSource) {
    this.sql = positional(
      db,
      `SELECT k."id", k."name", k."organisationId", k."scopes", k."expiresAt", k."lastUsedAt", o."name" AS "organisationName", o."allowedIpRanges" ` +
        `FROM "api_keys" k JOIN "organisations" o ON o."id" = k."organisationId" WHERE k."keyHash" = ?`,
    );
    // The condition decides, so that instances racing on the same minute write once between them.
    this.touchSql = positional(
      db,
      'UPDATE "api_keys" SET "lastUsedAt" = ? WHERE "id" = ? AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ?)',
    );
  }

  /**
   * The key's caller, or 401 for an unknown, revoked or expired key, 403 IP_NOT_ALLOWED from outside its
   * organisation's ranges (not recorded as a use).
   */
  async authenticate(key: string, origin: CallOrigin, now = new Date()): Promise<AuthUser> {
    if (!isApiKey(key) || key.length > KEY_MAX_LENGTH) throw invalid();
    const row = ((await this.db.query(this.sql, [sha256(key)])) as Row[])[0];
    if (!row) throw invalid();
    const expiresAt = row.expiresAt === null ? null : readDate(row.expiresAt);
    if (expiresAt && expiresAt.getTime() <= now.getTime()) throw invalid();
    const ranges =
      typeof row.allowedIpRanges === 'string' ? (JSON.parse(row.allowedIpRanges) as string[]) : row.allowedIpRanges;
    const verdict = policyVerdict(
      { eSupport: false, ranges, session: null },
      ranges.length > 0 ? origin.ip : undefined,
      now.getTime(),
    );
    // A key has no session to end: whatever the policy refuses, it refuses this call.
    if (verdict) throw 'refuse' in verdict ? policyRefusal(verdict.refuse) : invalid();
    const lastUsedAt = row.lastUsedAt === null ? null : readDate(row.lastUsedAt);
    if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= API_KEY_USE_RECORD_MS) await this.touch(row.id, now);
    const organisationId = Number(row.organisationId);
    return {
      id: 0,
      email: row.name,
      organisationId,
      organisationName: row.organisationName,
      sessionId: '',
      roles: effectiveRoles(BASE_ROLE, true),
      isMFAEnforced: false,
      isMFAEnabled: false,
      hasPasskey: false,
      // No proof of identity: a key never passes a step-up (the access guard refuses sensitive calls before).
      authenticatedAt: new Date(0),
      signInMethod: 'api-key',
      apiKey: { id: Number(row.id), name: row.name, scopes: parseScopes(row.scopes) },
    };
  }

  /** Writes lastUsedAt, at most once a minute per key; a failure to write it never refuses the call. */
  private async touch(id: number, now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - API_KEY_USE_RECORD_MS);
    const values = [storedDate(this.db, now), id, storedDate(this.db, cutoff)];
    try {
      await this.db.query(this.touchSql, values);
    } catch (e) {
      this.logger.warn(`The last use of API key ${id} was not recorded: ${(e as Error).message}`);
    }
  }
}

const invalid = () => AppException.unauthorized(API_KEY_MESSAGES.KEY_INVALID);

/** The stored space-separated scopes, known ones only. */
export function parseScopes(stored: string): ApiKeyScope[] {
  const words = stored.split(' ');
  return API_KEY_SCOPES.filter((s) => words.includes(s));
}
