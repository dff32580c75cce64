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
import { readDate } from '../../platform/database/raw-sql';
import { DoorRow, PolicyRow, SessionAuthStore, SessionRow } from './session-auth.store';
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

/** How many open sessions' rows the SQLite lookup keeps (the oldest kept is dropped first). */
const SIGNED_IN_ROWS_MAX = 10_000;
/** How many sessions' last recorded call this instance remembers (to write it at most once a minute each). */
const LAST_USED_KEPT_MAX = 10_000;

interface KeptRow {
  generation: number;
  row: SessionRow;
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
  private readonly store: SessionAuthStore;
  private readonly generation?: () => number;
  private readonly kept = new Map<string, KeptRow>();
  /** When this instance last wrote each session's last use (ms). */
  private readonly lastUsedWritten = new Map<string, number>();
  /** The sessions feature ends a session the policy ended here, so that its sockets close and its end is recorded. */
  @Requires(SessionEnder) private readonly ender!: SessionEnder;
  /** The corporate sign-on feature tells whom its organisation's requirement of single sign-on covers. */
  @Requires(SsoCoverage) private readonly ssoCoverage!: SsoCoverage;

  constructor(
    db: DataSource,
    private readonly tokens: TokenService,
  ) {
    this.store = new SessionAuthStore(db);
    this.generation = writeGeneration(db);
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
    await this.store.recordUse(sessionId, now);
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
    const row = await this.store.door(sessionId);
    if (!row) throw sessionEnded();
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
  private async lookUp(sessionId: string, userId: number, keep: boolean): Promise<SessionRow | null> {
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

  private async query(sessionId: string, userId: number): Promise<SessionRow | null> {
    return this.store.signedIn(sessionId, userId);
  }

  /** The caller of an HTTP request (`Authorization: Bearer <access token>`). */
  authenticateHeader(authorization: string | undefined, origin: CallOrigin): Promise<SignedIn> {
    return this.authenticate(bearer(authorization), origin);
  }
}

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again.';

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
  const lastUsedAt = row.lastUsedAt === null ? 0 : readDate(row.lastUsedAt).getTime();
  const policySavedAt = row.securityPolicyAt === null ? 0 : readDate(row.securityPolicyAt).getTime();
  const lastRefreshAt = row.lastRefreshAt === null ? 0 : readDate(row.lastRefreshAt).getTime();
  return {
    ranges,
    eSupport: Number(row.roleId) === Role.E_SUPPORT,
    createdAt: readDate(row.sessionCreatedAt!),
    lastActiveAt: new Date(Math.max(lastRefreshAt, lastUsedAt, policySavedAt)),
    sessionIdleMinutes: row.sessionIdleMinutes,
    sessionMaxHours: row.sessionMaxHours,
    lastUsedAt,
  };
}

function toSignedIn(r: SessionRow, sessionId: string, exp: number): SignedIn {
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
      authenticatedAt: readDate(r.authenticatedAt),
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
              endsAt: readDate(r.supportEndsAt!),
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
