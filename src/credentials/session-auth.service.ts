import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppException } from '../common/app.exception';
import { AuthUser } from '../common/auth-user';
import { writeGeneration } from '../database/sqlite/serialiser';
import { maySignIn } from './may-sign-in';
import { bearer, TokenService } from './token.service';
import { CurrentUserInfo } from '../shared/api-types';
import { ERROR_CODES } from '../shared/messages';
import { effectiveRoles, Role, ROLE_CODES, ROLE_NAMES } from '../shared/roles';
import { SECURITY_POLICY_MESSAGES } from '../shared/security-policy';
import { addressAllowed, LAST_USED_RESOLUTION_MS, lifetimeOver } from './security-policy-rules';

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
  mfaRequired: number | boolean;
  allowedIpRanges: string | string[];
  sessionIdleMinutes: number | null;
  sessionMaxHours: number | null;
  securityPolicyAt: string | Date | null;
  sessionCreatedAt: string | Date;
  lastRefreshAt: string | Date;
  lastUsedAt: string | Date | null;
}

/** Where a call comes from: the client address (Express's `req.ip`, which follows TRUST_PROXY), or null unknown. */
export interface CallOrigin {
  ip: string | null | undefined;
}

/**
 * The origin of an Express request, its address read only when a policy asks for it: Express works `req.ip` out
 * anew (X-Forwarded-For and the trust setting) on every read, which a call of an organisation without address
 * ranges never needs.
 */
export function originOf(req: { ip?: string }): CallOrigin {
  return {
    get ip() {
      return req.ip;
    },
  };
}

/**
 * Ends a session the organisation's policy ended (idle or too old), with its sockets and its audit event: the sessions
 * feature's. Answers whether this call ended it (false when the sweep or another call already had).
 */
export type SessionEnder = (sessionId: string, reason: 'idle' | 'policy-max-age') => Promise<boolean>;

const COLUMNS = `u."id", u."email", u."firstName", u."lastName", u."organisationId", u."roleId", u."isAdministrator", u."isDisabled",
  u."isBlocked", u."isMFAEnforced", u."isMFAEnabled", u."hasPasskey", u."isSSO", o."code" AS "organisationCode", o."name" AS "organisationName", o."applications",
  COALESCE(s."authenticatedAt", s."createdAt") AS "authenticatedAt", s."method", o."mfaRequired", o."allowedIpRanges",
  o."sessionIdleMinutes", o."sessionMaxHours", o."securityPolicyAt", s."createdAt" AS "sessionCreatedAt", s."lastRefreshAt",
  s."lastUsedAt"`;
const FROM = `FROM "sessions" s JOIN "users" u ON u."id" = s."userId" JOIN "organisations" o ON o."id" = u."organisationId"`;

/** How many open sessions' rows the SQLite lookup keeps (the oldest kept is dropped first). */
const SIGNED_IN_ROWS_MAX = 10_000;
/** How many sessions' last recorded call this instance remembers (to write it at most once a minute each). */
const LAST_USED_KEPT_MAX = 10_000;

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
 *
 * The organisation's security policy comes with the same row (docs/decisions/security-policy-enforcement.md): its
 * address ranges, its MFA requirement (an account without a second factor reads as MFA enforced) and its session
 * lifetimes hold on the next call on every instance, with no read of their own.
 */
@Injectable()
export class SessionAuthService {
  private readonly sql: string;
  private readonly generation?: () => number;
  private readonly kept = new Map<string, KeptRow>();
  /** When this instance last wrote each session's last use (ms). */
  private readonly lastUsedWritten = new Map<string, number>();
  private readonly lastUsedSql: string;
  private ender?: SessionEnder;
  private readonly postgres: boolean;

  constructor(
    private readonly db: DataSource,
    private readonly tokens: TokenService,
  ) {
    const postgres = db.options.type === 'postgres';
    this.postgres = postgres;
    this.sql = `SELECT ${COLUMNS} ${FROM} WHERE s."id" = ${postgres ? '$1' : '?'} AND s."endedAt" IS NULL AND u."id" = ${postgres ? '$2' : '?'}`;
    this.generation = writeGeneration(db);
    this.lastUsedSql = postgres
      ? 'UPDATE "sessions" SET "lastUsedAt" = $1 WHERE "id" = $2 AND "endedAt" IS NULL'
      : 'UPDATE "sessions" SET "lastUsedAt" = ? WHERE "id" = ? AND "endedAt" IS NULL';
  }

  /** The sessions feature ends a session the policy ended here, so that its sockets close and its end is recorded. */
  useSessionEnder(ender: SessionEnder): void {
    this.ender = ender;
  }

  /**
   * The one check of an access token, for the HTTP guard, the notifications socket and GET /auth/status:
   * its signature and expiry, then its open session and an account that may sign in, in one lookup.
   * No token or a bad one is 401, an expired one the spec's 403 'jwt expired', an ended session 401 SESSION_ENDED
   * (also one the organisation's idle or age limit ends now), a call from outside the organisation's address ranges
   * 403 IP_NOT_ALLOWED.
   */
  async authenticate(
    token: string | undefined,
    origin: CallOrigin,
    { keep = true }: { keep?: boolean } = {},
  ): Promise<SignedIn> {
    const payload = this.tokens.verifyAccessToken(token, keep);
    const row = await this.lookUp(payload.sid, payload.sub, keep);
    const found = row ? toSignedIn(row, payload.sid, payload.exp) : null;
    if (!row || !found || !maySignIn(found)) throw sessionEnded();
    await this.enforcePolicy(row, found.user.roles, payload.sid, origin);
    return found;
  }

  /**
   * The organisation's policy for an open session's row: its lifetimes (an expired session is ended, then refused),
   * then its address ranges (E-Support accounts are bound by none), then, under an idle limit, the call is recorded.
   * The row's policy is read once per row (kept rows are not parsed again); an organisation without one costs a
   * property read.
   */
  private async enforcePolicy(row: Row, roles: Role[], sessionId: string, origin: CallOrigin): Promise<void> {
    const policy = policyOfRow(row);
    if (!policy) return;
    const now = Date.now();
    const over = lifetimeOver(
      {
        createdAt: policy.createdAt,
        lastActiveAt: policy.lastActiveAt,
        sessionIdleMinutes: row.sessionIdleMinutes,
        sessionMaxHours: row.sessionMaxHours,
      },
      now,
    );
    if (over) {
      this.kept.delete(sessionId);
      await this.ender?.(sessionId, over);
      throw sessionEnded();
    }
    if (policy.ranges.length > 0 && !roles.includes(Role.E_SUPPORT) && !addressAllowed(policy.ranges, origin.ip))
      throw AppException.forbidden(SECURITY_POLICY_MESSAGES.IP_NOT_ALLOWED, ERROR_CODES.IP_NOT_ALLOWED);
    if (row.sessionIdleMinutes !== null) await this.recordUse(sessionId, policy.lastUsedAt, now);
  }

  /** Writes the session's last use when the recorded one is a minute old or more, at most once a minute per session. */
  private async recordUse(sessionId: string, recorded: number, now: number): Promise<void> {
    const written = Math.max(recorded, this.lastUsedWritten.get(sessionId) ?? 0);
    if (now - written < LAST_USED_RESOLUTION_MS) return;
    if (this.lastUsedWritten.size >= LAST_USED_KEPT_MAX) this.lastUsedWritten.clear();
    this.lastUsedWritten.set(sessionId, now);
    await this.db.query(this.lastUsedSql, [this.postgres ? new Date(now) : sqliteDate(now), sessionId]);
  }

  /**
   * The refresh's check of the policy, for a session whose refresh token was just rotated: the same rules as a call
   * (the session open, its lifetimes, the address), read afresh.
   */
  async enforceOnRefresh(sessionId: string, userId: number, origin: CallOrigin): Promise<void> {
    const row = await this.query(sessionId, userId);
    const found = row ? toSignedIn(row, sessionId, 0) : null;
    if (!row || !found || !maySignIn(found)) throw sessionEnded();
    await this.enforcePolicy(row, found.user.roles, sessionId, origin);
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
  authenticateHeader(authorization: string | undefined, origin: CallOrigin): Promise<SignedIn> {
    return this.authenticate(bearer(authorization), origin);
  }
}

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again.';

/** A date as TypeORM writes a datetime column on SQLite (UTC text), so that every reader parses it alike. */
function sqliteDate(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

function sessionEnded(): AppException {
  return AppException.unauthorized(SESSION_ENDED_MESSAGE, ERROR_CODES.SESSION_ENDED);
}

/** A simple-json column as a raw query reads it: text on SQLite and PostgreSQL alike ('[]' when unset). */
function stringList(value: string | string[]): string[] {
  return typeof value === 'string' ? (JSON.parse(value) as string[]) : value;
}

/** What the policy checks of a row, parsed once: null when the organisation has no rule the session check applies. */
interface RowPolicy {
  ranges: string[];
  createdAt: Date;
  /** The latest of its refresh, its last recorded call and the idle limit's save. */
  lastActiveAt: Date;
  /** Its last recorded call (ms), 0 when none. */
  lastUsedAt: number;
}

const rowPolicies = new WeakMap<Row, RowPolicy | null>();

function policyOfRow(row: Row): RowPolicy | null {
  let policy = rowPolicies.get(row);
  if (policy !== undefined) return policy;
  const ranges = stringList(row.allowedIpRanges);
  if (ranges.length === 0 && row.sessionIdleMinutes === null && row.sessionMaxHours === null) policy = null;
  else {
    const lastUsedAt = row.lastUsedAt === null ? 0 : databaseDate(row.lastUsedAt).getTime();
    const policySavedAt = row.securityPolicyAt === null ? 0 : databaseDate(row.securityPolicyAt).getTime();
    policy = {
      ranges,
      createdAt: databaseDate(row.sessionCreatedAt),
      lastActiveAt: new Date(Math.max(databaseDate(row.lastRefreshAt).getTime(), lastUsedAt, policySavedAt)),
      lastUsedAt,
    };
  }
  rowPolicies.set(row, policy);
  return policy;
}

/** A date column as a raw query reads it: a Date from PostgreSQL, UTC text ('YYYY-MM-DD HH:MM:SS[.SSS]') from SQLite. */
function databaseDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}

function toSignedIn(r: Row, sessionId: string, exp: number): SignedIn {
  const roles = effectiveRoles(r.roleId, Boolean(r.isAdministrator));
  // The organisation's policy enforces MFA on each of its members, as their own enforcement does.
  const isMFAEnforced = Boolean(r.isMFAEnforced) || Boolean(r.mfaRequired);
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
