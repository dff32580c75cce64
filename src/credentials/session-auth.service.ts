import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppException } from '../common/app.exception';
import { AuthUser } from '../common/auth-user';
import { writeGeneration } from '../database/sqlite/serialiser';
import { maySignIn } from './may-sign-in';
import { bearer, TokenService } from './token.service';
import { CurrentUserInfo } from '../shared/api-types';
import { ERROR_CODES } from '../shared/messages';
import { effectiveRoles, ROLE_CODES, ROLE_NAMES } from '../shared/roles';

/** A signed-in caller as one lookup finds them: the account, its organisation, the open session. */
export interface SignedIn {
  user: AuthUser;
  /** The access token's expiry, unix seconds. */
  exp: number;
  profile: CurrentUserInfo;
  isDisabled: boolean;
  isBlocked: boolean;
}

interface Row {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  organisationId: number;
  roleId: number;
  isAdministrator: number | boolean;
  isDisabled: number | boolean;
  isBlocked: number | boolean;
  isMFAEnforced: number | boolean;
  isMFAEnabled: number | boolean;
  hasPasskey: number | boolean;
  isSSO: number | boolean;
  organisationCode: string;
  organisationName: string;
  applications: string | string[];
  authenticatedAt: string | Date;
  method: string;
}

const COLUMNS = `u."id", u."email", u."firstName", u."lastName", u."organisationId", u."roleId", u."isAdministrator", u."isDisabled",
  u."isBlocked", u."isMFAEnforced", u."isMFAEnabled", u."hasPasskey", u."isSSO", o."code" AS "organisationCode", o."name" AS "organisationName", o."applications",
  COALESCE(s."authenticatedAt", s."createdAt") AS "authenticatedAt", s."method"`;
const FROM = `FROM "sessions" s JOIN "users" u ON u."id" = s."userId" JOIN "organisations" o ON o."id" = u."organisationId"`;

/** How many open sessions' rows the SQLite lookup keeps (the oldest kept is dropped first). */
const SIGNED_IN_ROWS_MAX = 10_000;

interface KeptRow {
  generation: number;
  row: Row;
}

/**
 * Who is calling, decided once for HTTP and the notifications socket alike: the access token's
 * signature and expiry, then ONE query for its session (still open), the account and its organisation.
 * A session ended by logout, force log-off, a disabled account, a password or an MFA change is refused on
 * the very next call. On SQLite the row found is kept while the data source's write generation stands: the one
 * process writes through the one gate, and any write (committed before the writer hears of it) makes every kept
 * row stale, so a kept row is always what the query would read now; a write to the file by another process is
 * noticed within about a second (writeGeneration). PostgreSQL is shared by instances whose writes this one never
 * sees: it is asked every time.
 */
@Injectable()
export class SessionAuthService {
  private readonly sql: string;
  private readonly generation?: () => number;
  private readonly kept = new Map<string, KeptRow>();

  constructor(
    private readonly db: DataSource,
    private readonly tokens: TokenService,
  ) {
    const postgres = db.options.type === 'postgres';
    this.sql = `SELECT ${COLUMNS} ${FROM} WHERE s."id" = ${postgres ? '$1' : '?'} AND s."endedAt" IS NULL AND u."id" = ${postgres ? '$2' : '?'}`;
    this.generation = writeGeneration(db);
  }

  /**
   * The one check of an access token, for the HTTP guard, the notifications socket and GET /auth/status:
   * its signature and expiry, then its open session and an account that may sign in, in one lookup.
   * No token or a bad one is 401, an expired one the spec's 403 'jwt expired', an ended session 401 SESSION_ENDED.
   */
  async authenticate(token: string | undefined, { keep = true }: { keep?: boolean } = {}): Promise<SignedIn> {
    const payload = this.tokens.verifyAccessToken(token, keep);
    const row = await this.lookUp(payload.sid, payload.sub, keep);
    const found = row ? toSignedIn(row, payload.sid, payload.exp) : null;
    if (!found || !maySignIn(found)) throw AppException.unauthorized(SESSION_ENDED_MESSAGE, ERROR_CODES.SESSION_ENDED);
    return found;
  }

  /**
   * The open session's row (account and organisation), or null; kept on SQLite while nothing is written, unless
   * `keep` is false (a one-off check, such as a socket's handshake, which only fills the cache of the calls that
   * repeat, and would cost memory for every open socket).
   */
  private async lookUp(sessionId: string, userId: number, keep: boolean): Promise<Row | null> {
    const generation = this.generation?.();
    if (generation === undefined) return this.query(sessionId, userId);
    const kept = this.kept.get(sessionId);
    if (kept && kept.generation === generation && kept.row.id === userId) return kept.row;
    // The generation is read before the query: a write that lands while it waits makes what it reads stale.
    const row = await this.query(sessionId, userId);
    if (row && keep) {
      this.kept.delete(sessionId);
      if (this.kept.size >= SIGNED_IN_ROWS_MAX) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(sessionId, { generation, row });
    }
    return row;
  }

  private async query(sessionId: string, userId: number): Promise<Row | null> {
    const rows = (await this.db.query(this.sql, [sessionId, userId])) as Row[];
    return rows.length === 1 ? rows[0] : null;
  }

  /** The caller of an HTTP request (`Authorization: Bearer <access token>`). */
  authenticateHeader(authorization: string | undefined): Promise<SignedIn> {
    return this.authenticate(bearer(authorization));
  }
}

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again.';

/** A date column as a raw query reads it: a Date from PostgreSQL, UTC text ('YYYY-MM-DD HH:MM:SS[.SSS]') from SQLite. */
function databaseDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}

function toSignedIn(r: Row, sessionId: string, exp: number): SignedIn {
  const roles = effectiveRoles(r.roleId, Boolean(r.isAdministrator));
  const isMFAEnforced = Boolean(r.isMFAEnforced);
  const isMFAEnabled = Boolean(r.isMFAEnabled);
  const hasPasskey = Boolean(r.hasPasskey);
  const applications = typeof r.applications === 'string' ? (JSON.parse(r.applications) as string[]) : r.applications;
  return {
    exp,
    user: {
      id: r.id,
      email: r.email,
      organisationId: r.organisationId,
      sessionId,
      roles,
      isMFAEnforced,
      isMFAEnabled,
      hasPasskey,
      authenticatedAt: databaseDate(r.authenticatedAt),
      signInMethod: r.method,
      organisationName: r.organisationName,
    },
    profile: {
      id: r.id,
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email,
      organisationId: r.organisationId,
      organisationCode: r.organisationCode,
      masterAccountName: r.organisationName,
      applications,
      roles: roles.map((role) => ({ roleId: role, roleCode: ROLE_CODES[role], roleName: ROLE_NAMES[role] })),
      isMFAEnforced,
      isMFAEnabled,
      isSSO: Boolean(r.isSSO),
      hasPasskey,
    },
    isDisabled: Boolean(r.isDisabled),
    isBlocked: Boolean(r.isBlocked),
  };
}
