import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { writeGeneration } from '../../platform/database/sqlite/serialiser';
import { maySignIn } from './may-sign-in';
import { bearer, TokenService } from './token.service';
import { CurrentUserInfo } from '../../shared/api-types';
import { ERROR_CODES } from '../../shared/messages';
import { effectiveRoles, Role, ROLE_CODES, ROLE_NAMES } from '../../shared/roles';
import { PolicyFacts, policyRefusal, policyVerdict, StepUpProof } from './access-policy';
import { LAST_USED_RESOLUTION_MS, SessionTimes } from './security-policy-rules';
import { Requires } from '../../platform/wiring';
import { SessionEnder } from './session-ender';
import { SsoCoverage } from './sso-coverage';

/** A signed-in caller as one lookup finds them: the account, its organisation, the open session. */
export interface SignedIn {
  user: AuthUser;
  /** The access token's expiry, unix seconds. */
  exp: number;
  profile: CurrentUserInfo;
  isDisabled: boolean;
  isBlocked: boolean;
}

interface Row extends PolicyRow {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  organisationId: number;
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
  /** 1 when the organisation has address ranges or a session lifetime (SESSION_RULES_SQL), else 0. */
  sessionRules: number;
  /** A support-access session's request, the E-Support account acting, its end, and the organisation's choice. */
  supportAccessId: number | null;
  supportActorId: number | null;
  supportActorEmail: string | null;
  supportActorOrganisationId: number | null;
  supportEndsAt: string | Date | null;
  supportStatus: string | null;
  supportAccess: string;
}

/**
 * What the session check reads of the policy and the session's times: in the session's row, where they are null
 * unless the organisation has session rules (so the common row carries and parses none of them), or read alone for a
 * refresh.
 */
interface PolicyRow {
  roleId: number;
  allowedIpRanges: string | string[] | null;
  sessionIdleMinutes: number | null;
  sessionMaxHours: number | null;
  securityPolicyAt: string | Date | null;
  sessionCreatedAt: string | Date | null;
  lastRefreshAt: string | Date | null;
  lastUsedAt: string | Date | null;
}

/**
 * Where a call comes from: the client address (Express's `req.ip`, which follows TRUST_PROXY), or null unknown.
 * Read only when the organisation has address ranges.
 */
export interface CallOrigin {
  readonly ip?: string | null;
}

/**
 * The origin of an Express request: the request itself. `req.ip` is worked out anew (`clientAddress`, from the
 * connection and the trusted proxies' X-Forwarded-For) on every read, which a call of an organisation without
 * address ranges never makes, and the signed-in path allocates nothing for it.
 */
export function originOf(req: { readonly ip?: string }): CallOrigin {
  return req;
}

/** What the refresh and step-up doors read besides the policy's columns: the account and the requirement of SSO. */
interface DoorRow extends PolicyRow {
  userId: number;
  email: string;
  organisationId: number;
  method: string;
  ssoRequired: number | boolean;
  ssoRequiredBy: number | null;
}

/**
 * Whether an organisation (alias `o`) has a rule the session check applies: address ranges or a session lifetime.
 * A simple-json list reads '[]' when empty; the MFA requirement is not one (it is read with the account).
 */
const HAS_SESSION_RULES = (o: string) =>
  `(${o}."allowedIpRanges" <> '[]' OR ${o}."sessionIdleMinutes" IS NOT NULL OR ${o}."sessionMaxHours" IS NOT NULL)`;

/** 1 when the organisation (alias `o`) has session rules, else 0. */
export const SESSION_RULES_SQL = (o: string) => `CASE WHEN ${HAS_SESSION_RULES(o)} THEN 1 ELSE 0 END`;

/**
 * 1 when a refresh of the session (alias `s`) must ask the policy: its organisation (alias `o`) has session rules, or
 * requires single sign-on and the session was opened otherwise (the rotation of a refresh token reads it).
 */
export const REFRESH_RULES_SQL = (o: string, s: string) =>
  `CASE WHEN ${HAS_SESSION_RULES(o)} OR (${o}."ssoRequired" AND ${s}."method" <> 'sso') THEN 1 ELSE 0 END`;

/** The policy's columns and the session's times (sessions `s`, users `u`, organisations `o`), with their names. */
const POLICY_COLUMNS: ReadonlyArray<[column: string, name: keyof PolicyRow]> = [
  ['o."allowedIpRanges"', 'allowedIpRanges'],
  ['o."sessionIdleMinutes"', 'sessionIdleMinutes'],
  ['o."sessionMaxHours"', 'sessionMaxHours'],
  ['o."securityPolicyAt"', 'securityPolicyAt'],
  ['s."createdAt"', 'sessionCreatedAt'],
  ['s."lastRefreshAt"', 'lastRefreshAt'],
  ['s."lastUsedAt"', 'lastUsedAt'],
];

/** The policy's columns, each null unless `condition` (when given) holds. */
const policyColumns = (condition?: string) =>
  POLICY_COLUMNS.map(([c, name]) => `${condition ? `CASE WHEN ${condition} THEN ${c} END` : c} AS "${name}"`).join(
    ', ',
  );

const COLUMNS = `u."id", u."email", u."firstName", u."lastName", u."organisationId", u."roleId", u."isAdministrator", u."isDisabled",
  u."isBlocked", u."isMFAEnforced", u."isMFAEnabled", u."hasPasskey", u."isSSO", o."code" AS "organisationCode", o."name" AS "organisationName", o."applications",
  COALESCE(s."authenticatedAt", s."createdAt") AS "authenticatedAt", s."method", o."mfaRequired", ${SESSION_RULES_SQL('o')} AS "sessionRules",
  ${policyColumns(HAS_SESSION_RULES('o'))}, s."supportAccessId", sa."supportUserId" AS "supportActorId", su."email" AS "supportActorEmail",
  su."organisationId" AS "supportActorOrganisationId", sa."endsAt" AS "supportEndsAt", sa."status" AS "supportStatus", o."supportAccess"`;
const FROM = `FROM "sessions" s JOIN "users" u ON u."id" = s."userId" JOIN "organisations" o ON o."id" = u."organisationId"`;
/** A support-access session's request and the E-Support account acting (docs/support-access.md); none for others. */
const SUPPORT_JOIN = `LEFT JOIN "support_access" sa ON sa."id" = s."supportAccessId" LEFT JOIN "users" su ON su."id" = sa."supportUserId"`;

/** How many open sessions' rows the SQLite lookup keeps (the oldest kept is dropped first). */
const SIGNED_IN_ROWS_MAX = 10_000;
/** How many sessions' last recorded call this instance remembers (to write it at most once a minute each). */
const LAST_USED_KEPT_MAX = 10_000;

interface KeptRow {
  generation: number;
  row: Row;
  /** The policy parsed from a row with session rules (null: none applies); undefined: not parsed yet. */
  policy?: RowPolicy | null;
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
 * The organisation's security policy (docs/decisions/security-policy-enforcement.md) holds on the next call on every
 * instance: its MFA requirement comes with the row (an account without a second factor reads as MFA enforced), and
 * so does whether it has session rules; only then are its address ranges and session lifetimes read, with the
 * session's times, and kept with the row on SQLite. A call of an organisation without them costs the policy no read,
 * no wait and no allocation.
 */
@Injectable()
export class SessionAuthService {
  private readonly sql: string;
  private readonly policySql: string;
  private readonly generation?: () => number;
  private readonly kept = new Map<string, KeptRow>();
  /** When this instance last wrote each session's last use (ms). */
  private readonly lastUsedWritten = new Map<string, number>();
  private readonly lastUsedSql: string;
  /** The sessions feature ends a session the policy ended here, so that its sockets close and its end is recorded. */
  @Requires(SessionEnder) private readonly ender!: SessionEnder;
  /** The corporate sign-on feature tells whom its organisation's requirement of single sign-on covers. */
  @Requires(SsoCoverage) private readonly ssoCoverage!: SsoCoverage;
  private readonly postgres: boolean;

  constructor(
    private readonly db: DataSource,
    private readonly tokens: TokenService,
  ) {
    const postgres = db.options.type === 'postgres';
    this.postgres = postgres;
    this.sql = `SELECT ${COLUMNS} ${FROM} ${SUPPORT_JOIN} WHERE s."id" = ${postgres ? '$1' : '?'} AND s."endedAt" IS NULL AND u."id" = ${postgres ? '$2' : '?'}`;
    this.policySql = `SELECT u."roleId", u."id" AS "userId", u."email", u."organisationId", s."method", o."ssoRequired", o."ssoRequiredBy", ${policyColumns()} ${FROM} WHERE s."id" = ${postgres ? '$1' : '?'} AND s."endedAt" IS NULL`;
    this.generation = writeGeneration(db);
    this.lastUsedSql = postgres
      ? 'UPDATE "sessions" SET "lastUsedAt" = $1 WHERE "id" = $2 AND "endedAt" IS NULL'
      : 'UPDATE "sessions" SET "lastUsedAt" = ? WHERE "id" = ? AND "endedAt" IS NULL';
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
    if (!row) throw sessionEnded();
    const found = toSignedIn(row, payload.sid, payload.exp);
    if (!maySignIn(found)) throw sessionEnded();
    // A support-access session ends with its request (stopped), at its end, or when the organisation turns support
    // access off: on the next call, on every instance (the policy's verdict, from the session's row).
    const support = found.user.support && {
      running: row.supportStatus === 'active',
      endsAt: found.user.support.endsAt.getTime(),
      allowed: row.supportAccess !== 'never',
    };
    // The common case, an organisation without session rules, costs no read and no wait of its own.
    if (row.sessionRules || support) await this.enforcePolicy(payload.sid, row, origin, undefined, support);
    return found;
  }

  /**
   * The organisation's policy for an open session, as policyVerdict decides it: a session it ends (idle, too old, or
   * opened otherwise where single sign-on is now required) is ended, then refused; a refused call is 403; then, under
   * an idle limit, the call is recorded. `row`: the session's row with its policy columns, whose policy is parsed
   * once while the row is kept; `sso`: the single sign-on requirement's facts, where the door asks them; `support`: a
   * support-access session's.
   */
  private async enforcePolicy(
    sessionId: string,
    row: PolicyRow,
    origin: CallOrigin,
    sso?: PolicyFacts['sso'],
    support?: PolicyFacts['support'],
  ): Promise<void> {
    const policy = this.policyOf(sessionId, row);
    if (!policy && !sso && !support) return;
    const now = Date.now();
    const ranges = policy?.ranges ?? [];
    const facts: PolicyFacts = { eSupport: policy?.eSupport ?? false, ranges, session: policy, sso, support };
    // The client address is read only against ranges (Express works it out afresh on each read).
    const verdict = policyVerdict(facts, ranges.length > 0 ? origin.ip : undefined, now);
    if (verdict && 'end' in verdict) {
      this.kept.delete(sessionId);
      await this.ender.endByPolicy(sessionId, verdict.end);
      throw sessionEnded();
    }
    if (verdict) throw policyRefusal(verdict.refuse);
    if (policy && policy.sessionIdleMinutes !== null) await this.recordUse(sessionId, policy.lastUsedAt, now);
  }

  /** The policy of a session's row (null when none applies), parsed once while the row is kept. */
  private policyOf(sessionId: string, row: PolicyRow): RowPolicy | null {
    const kept = this.kept.get(sessionId);
    if (kept?.row !== row) return toPolicy(row);
    if (kept.policy === undefined) kept.policy = toPolicy(row);
    return kept.policy;
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
   * The refresh's check of the policy, for a session whose refresh token was just rotated (the rotation found the
   * session open and the account active, and whether its organisation has session rules or requires single sign-on:
   * only then is this asked): the same rules as a call, read afresh, and single sign-on now required of a session
   * opened otherwise. `previousRefreshAt`: the session's last refresh before this one (the rotation has just recorded
   * this one), so that the idle limit counts the time the session really sat unused.
   */
  async enforceOnRefresh(sessionId: string, origin: CallOrigin, previousRefreshAt?: Date | null): Promise<void> {
    await this.enforceAtDoor(sessionId, origin, undefined, previousRefreshAt);
  }

  /**
   * The step-up's check of the policy before a proof is weighed: the rules of a refresh, and a proof the
   * organisation's single sign-on requirement replaces (the password, a passkey) refused with 403 SSO_REQUIRED.
   */
  async enforceOnStepUp(sessionId: string, origin: CallOrigin, proof: StepUpProof): Promise<void> {
    await this.enforceAtDoor(sessionId, origin, proof);
  }

  private async enforceAtDoor(
    sessionId: string,
    origin: CallOrigin,
    proof?: StepUpProof,
    previousRefreshAt?: Date | null,
  ): Promise<void> {
    const rows = (await this.db.query(this.policySql, [sessionId])) as DoorRow[];
    if (rows.length !== 1) throw sessionEnded();
    const row = rows[0];
    if (previousRefreshAt) row.lastRefreshAt = previousRefreshAt;
    await this.enforcePolicy(sessionId, row, origin, await this.ssoFacts(row, proof));
  }

  /** The single sign-on requirement's facts of a session's row: asked of the SSO feature only when it may apply. */
  private async ssoFacts(row: DoorRow, proof?: StepUpProof): Promise<PolicyFacts['sso']> {
    const userId = Number(row.userId);
    const mayApply =
      Boolean(row.ssoRequired) && Number(row.roleId) !== Role.E_SUPPORT && Number(row.ssoRequiredBy) !== userId;
    if (!mayApply) return undefined;
    const account = { id: userId, email: row.email, organisationId: Number(row.organisationId), roleId: row.roleId };
    if (!(await this.ssoCoverage.covers(account))) return undefined;
    return { covered: true, sessionFromProvider: row.method === 'sso', proof };
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

/** What the policy checks of a session, parsed once per read. */
interface RowPolicy extends SessionTimes {
  ranges: string[];
  /** E-Support accounts are bound by no address range. */
  eSupport: boolean;
  /** Its last recorded call (ms), 0 when none. */
  lastUsedAt: number;
}

/** The policy of a session's row: null when the organisation has no rule the session check applies. */
function toPolicy(row: PolicyRow): RowPolicy | null {
  const ranges = row.allowedIpRanges === null ? [] : stringList(row.allowedIpRanges);
  if (ranges.length === 0 && row.sessionIdleMinutes === null && row.sessionMaxHours === null) return null;
  const lastUsedAt = row.lastUsedAt === null ? 0 : databaseDate(row.lastUsedAt).getTime();
  const policySavedAt = row.securityPolicyAt === null ? 0 : databaseDate(row.securityPolicyAt).getTime();
  const lastRefreshAt = row.lastRefreshAt === null ? 0 : databaseDate(row.lastRefreshAt).getTime();
  return {
    ranges,
    eSupport: Number(row.roleId) === Role.E_SUPPORT,
    createdAt: databaseDate(row.sessionCreatedAt!),
    lastActiveAt: new Date(Math.max(lastRefreshAt, lastUsedAt, policySavedAt)),
    sessionIdleMinutes: row.sessionIdleMinutes,
    sessionMaxHours: row.sessionMaxHours,
    lastUsedAt,
  };
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
      ...(r.supportAccessId === null || r.supportActorId === null
        ? {}
        : {
            support: {
              accessId: Number(r.supportAccessId),
              actorId: Number(r.supportActorId),
              actorEmail: r.supportActorEmail!,
              actorOrganisationId: Number(r.supportActorOrganisationId),
              endsAt: databaseDate(r.supportEndsAt!),
            },
          }),
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
