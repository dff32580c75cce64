import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { randomToken, sha256 } from '../../platform/crypto/secrets';
import { runSql, storedDate } from '../../platform/database/raw-sql';
import { isUniqueViolation } from '../../platform/database/unique-violation';
import { LIFETIMES } from '../../shared/limits';
import { ERROR_CODES } from '../../shared/messages';
import { RefreshToken } from './entities/refresh-token.entity';
import { REFRESH_RULES_SQL } from './session-auth.store';

/** The answer to a refresh token that is not (or no longer) good for a session. */
export function refreshInvalid(): AppException {
  return AppException.unauthorized('Your session has ended. Please log in again.', ERROR_CODES.REFRESH_INVALID);
}

interface RotationCandidate {
  id: number;
  sessionId: string;
  userId: number;
  expiresAt: Date;
  usedAt: Date | null;
  endedAt: Date | null;
  /** The account exists and is neither disabled nor blocked. */
  accountActive: boolean;
}

/**
 * Whether the refresh must ask the organisation's policy (REFRESH_RULES_SQL), and when the session was last refreshed
 * before this rotation (its predecessor's issue: the rotation's trigger has just moved the session's own
 * "lastRefreshAt" to now), as RETURNING columns of the rotation.
 */
const RETURNING_POLICY = `(SELECT ${REFRESH_RULES_SQL('o', 'rs')} FROM "sessions" rs JOIN "users" ru ON ru."id" = rs."userId"
  JOIN "organisations" o ON o."id" = ru."organisationId" WHERE rs."id" = "refresh_tokens"."sessionId") AS "sessionRules",
  (SELECT p."createdAt" FROM "refresh_tokens" p WHERE p."id" = "refresh_tokens"."replacesId") AS "previousRefreshAt"`;

/** A new session's first refresh token (unused; it replaces none). */
const INSERT_FIRST_REFRESH =
  'INSERT INTO "refresh_tokens" ("sessionId", "tokenHash", "createdAt", "expiresAt", "usedAt") VALUES (?, ?, ?, ?, NULL)';

/** A session as its refresh token names it. */
interface TokenSession {
  id: string;
  userId: number;
  /**
   * Whether its organisation's policy must be asked (address ranges, lifetimes, or single sign-on required of a
   * session opened otherwise); undefined: not known.
   */
  sessionRules?: boolean;
  /** When the session was refreshed (or opened) before this refresh; undefined: not known. */
  previousRefreshAt?: Date | null;
}

/**
 * What a presented refresh token comes to: its successor; a second tab's race within the grace period (a new access
 * token, no new refresh token); or the session must end (reuse of a rotated token, or an account no longer active).
 */
export type Rotation =
  | { session: TokenSession; refreshToken: string }
  | { session: TokenSession }
  | { end: 'disabled' | 'refresh-reuse'; sessionId: string };

/**
 * Rotating refresh tokens (docs/product-rules.md §3): one token per session at a time, each used once. The sessions feature
 * opens and ends sessions; this is the credential they carry.
 */
@Injectable()
export class RefreshTokenService {
  constructor(@InjectRepository(RefreshToken) private readonly refreshTokens: Repository<RefreshToken>) {}

  /** The first refresh token of a new session, inside its transaction. */
  async issue(tx: EntityManager, sessionId: string): Promise<string> {
    const raw = randomToken();
    const now = new Date();
    await runSql(tx, INSERT_FIRST_REFRESH, [
      sessionId,
      sha256(raw),
      storedDate(tx, now),
      storedDate(tx, new Date(now.getTime() + LIFETIMES.REFRESH_TOKEN_SECONDS * 1000)),
    ]);
    return raw;
  }

  /**
   * Exchanges a refresh token for its successor. A token presented again after its rotation is
   * reuse, and ends the whole session; within a few seconds it is a second tab racing the first,
   * which gets a new access token but no new refresh token.
   */
  async rotate(raw: string | undefined): Promise<Rotation> {
    const invalid = refreshInvalid;
    if (!raw) throw invalid();
    const tokenHash = sha256(raw);
    const now = new Date();
    // The hot path: one statement claims an unused, unexpired token of a live session of an active
    // account and inserts its successor (migration RefreshRotation1764000000000). Of two requests racing
    // with the same token only one rotates, and nothing can leave the session without a usable token.
    const successor = randomToken();
    const rotated = await this.insertSuccessor(tokenHash, successor, now);
    if (rotated) return { session: rotated, refreshToken: successor };

    // Not rotated: find out why.
    const token = await this.findForRotation(tokenHash);
    if (!token || token.endedAt) throw invalid();
    if (token.expiresAt <= now) throw invalid();
    const session = { id: token.sessionId, userId: token.userId };
    if (!token.accountActive) return { end: 'disabled', sessionId: session.id };
    if (token.usedAt) {
      // A second tab racing the first gets a new access token but no new refresh token; the session was last
      // refreshed when the first tab used this token.
      if (now.getTime() - token.usedAt.getTime() <= LIFETIMES.REFRESH_REUSE_GRACE_SECONDS * 1000) {
        return { session: { ...session, previousRefreshAt: token.usedAt } };
      }
      return { end: 'refresh-reuse', sessionId: session.id };
    }
    // Unused and valid, yet not rotated: nothing should get here; refuse rather than guess.
    throw invalid();
  }

  /**
   * The session a current refresh token belongs to, without using it (the OpenID provider's sign-in reads the
   * browser's session this way): the token unused and unexpired, its session open. Null for anything else.
   */
  async sessionOf(raw: string | undefined): Promise<{ sessionId: string; userId: number } | null> {
    if (!raw) return null;
    const token = await this.findForRotation(sha256(raw));
    if (!token || token.endedAt || token.usedAt || token.expiresAt <= new Date() || !token.accountActive) return null;
    return { sessionId: token.sessionId, userId: token.userId };
  }

  /** A refresh token with what its rotation needs to know of its session and account, in one query. */
  private async findForRotation(tokenHash: string): Promise<RotationCandidate | null> {
    const driver = this.refreshTokens.manager.connection.driver;
    const [sql, params] = driver.escapeQueryWithParameters(
      `SELECT t."id" AS "id", t."sessionId" AS "sessionId", t."expiresAt" AS "expiresAt", t."usedAt" AS "usedAt",
        s."endedAt" AS "endedAt", s."userId" AS "userId", u."isDisabled" AS "isDisabled", u."isBlocked" AS "isBlocked"
      FROM "refresh_tokens" t INNER JOIN "sessions" s ON s."id" = t."sessionId" LEFT JOIN "users" u ON u."id" = s."userId"
      WHERE t."tokenHash" = :tokenHash`,
      { tokenHash },
      {},
    );
    const rows = (await this.refreshTokens.query(sql, params)) as Array<Record<string, unknown>>;
    const row = rows[0];
    if (!row) return null;
    const date = (v: unknown) =>
      v === null || v === undefined ? null : (driver.prepareHydratedValue(v, this.dateColumn) as Date);
    return {
      id: Number(row.id),
      sessionId: String(row.sessionId),
      userId: Number(row.userId),
      expiresAt: date(row.expiresAt) ?? new Date(0),
      usedAt: date(row.usedAt),
      endedAt: date(row.endedAt),
      accountActive:
        row.isDisabled !== null && row.isDisabled !== undefined && !Number(row.isDisabled) && !Number(row.isBlocked),
    };
  }

  /**
   * Inserts the successor of an unused, unexpired token of a live session of an active account (its insertion
   * marks the token used and the session refreshed); the session's id and user, or null when there was none
   * to succeed.
   */
  private async insertSuccessor(tokenHash: string, raw: string, now: Date): Promise<Required<TokenSession> | null> {
    const driver = this.refreshTokens.manager.connection.driver;
    const stamp = (d: Date) => driver.preparePersistentValue(d, this.dateColumn) as unknown;
    const [sql, params] = driver.escapeQueryWithParameters(
      // The leading comment makes TypeORM's SQLite runner read the RETURNING rows (it runs statements
      // starting with "INSERT " without reading any).
      `/* refresh rotation */ INSERT INTO "refresh_tokens" ("sessionId", "tokenHash", "createdAt", "expiresAt", "usedAt", "replacesId")
      SELECT t."sessionId", :successorHash, :now, :expiresAt, NULL, t."id"
      FROM "refresh_tokens" t INNER JOIN "sessions" s ON s."id" = t."sessionId" INNER JOIN "users" u ON u."id" = s."userId"
      WHERE t."tokenHash" = :tokenHash AND t."usedAt" IS NULL AND t."expiresAt" > :now AND s."endedAt" IS NULL
        AND NOT u."isDisabled" AND NOT u."isBlocked"
      RETURNING "sessionId", (SELECT "userId" FROM "sessions" WHERE "sessions"."id" = "refresh_tokens"."sessionId") AS "userId",
        ${RETURNING_POLICY}`,
      {
        tokenHash,
        successorHash: sha256(raw),
        now: stamp(now),
        expiresAt: stamp(new Date(now.getTime() + LIFETIMES.REFRESH_TOKEN_SECONDS * 1000)),
      },
      {},
    );
    try {
      const rows = (await this.refreshTokens.query(sql, params)) as Array<{
        sessionId: string;
        userId: number | string;
        sessionRules: number | string;
        previousRefreshAt: unknown;
      }>;
      const row = rows[0];
      if (!row) return null;
      const previous = row.previousRefreshAt;
      return {
        id: String(row.sessionId),
        userId: Number(row.userId),
        sessionRules: Number(row.sessionRules) === 1,
        previousRefreshAt:
          previous === null || previous === undefined
            ? null
            : (driver.prepareHydratedValue(previous, this.dateColumn) as Date),
      };
    } catch (e) {
      // A concurrent request inserted the successor first (unique "replacesId").
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  private get dateColumn() {
    return this.refreshTokens.metadata.findColumnWithPropertyName('expiresAt')!;
  }
}
