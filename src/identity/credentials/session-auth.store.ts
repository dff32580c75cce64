import { DataSource } from 'typeorm';
import { positional, storedDate } from '../../platform/database/raw-sql';
import {
  SECURITY_POLICY_FIELD_NAMES,
  SECURITY_POLICY_FIELDS,
  SecurityPolicy,
} from '../../shared/administration/security-policy';

/**
 * The statements of the session check (session-auth.service.ts): one query for a call's session, its account and
 * organisation; the policy's columns alone for a refresh or a step-up; the write of a session's last use. Written
 * once with `?` placeholders; raw-sql.ts fits them to the engine.
 */

/** A signed-in caller's row: the account, its organisation, the open session. */
export interface SessionRow extends PolicyRow {
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
export interface PolicyRow {
  roleId: number;
  allowedIpRanges: string | string[] | null;
  sessionIdleMinutes: number | null;
  sessionMaxHours: number | null;
  securityPolicyAt: string | Date | null;
  sessionCreatedAt: string | Date | null;
  lastRefreshAt: string | Date | null;
  lastUsedAt: string | Date | null;
}

/** What the refresh and step-up doors read besides the policy's columns: the account and the requirement of SSO. */
export interface DoorRow extends PolicyRow {
  userId: number;
  email: string;
  organisationId: number;
  method: string;
  ssoRequired: number | boolean;
  ssoRequiredBy: number | null;
}

/** The policy's rules the session check applies (SECURITY_POLICY_FIELDS' sessionRule), in their order. */
const SESSION_RULES = SECURITY_POLICY_FIELD_NAMES.filter((name) => SECURITY_POLICY_FIELDS[name].sessionRule);

/** Whether a rule of the organisation (alias `o`) is set: a list not empty, a limit not null. */
function ruleIsSet(o: string, name: keyof SecurityPolicy): string {
  const field = SECURITY_POLICY_FIELDS[name];
  if (field.kind === 'ranges') return `${o}."${name}" <> '[]'`;
  if (field.kind === 'whole' && field.nullable) return `${o}."${name}" IS NOT NULL`;
  throw new Error(`The session check has no test of whether ${name} is set`);
}

/**
 * Whether an organisation (alias `o`) has a rule the session check applies: address ranges or a session lifetime.
 * A simple-json list reads '[]' when empty; the MFA requirement is not one (it is read with the account).
 */
const HAS_SESSION_RULES = (o: string) => `(${SESSION_RULES.map((name) => ruleIsSet(o, name)).join(' OR ')})`;

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
  ...SESSION_RULES.map((name): [string, keyof PolicyRow] => [`o."${name}"`, name as keyof PolicyRow]),
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

/** The session check's reads and its one write, each statement fitted to the engine once. */
export class SessionAuthStore {
  private readonly signedInSql: string;
  private readonly doorSql: string;
  private readonly lastUsedSql: string;

  constructor(private readonly db: DataSource) {
    this.signedInSql = positional(
      db,
      `SELECT ${COLUMNS} ${FROM} ${SUPPORT_JOIN} WHERE s."id" = ? AND s."endedAt" IS NULL AND u."id" = ?`,
    );
    this.doorSql = positional(
      db,
      `SELECT u."roleId", u."id" AS "userId", u."email", u."organisationId", s."method", o."ssoRequired", o."ssoRequiredBy", ${policyColumns()} ${FROM} WHERE s."id" = ? AND s."endedAt" IS NULL`,
    );
    this.lastUsedSql = positional(db, 'UPDATE "sessions" SET "lastUsedAt" = ? WHERE "id" = ? AND "endedAt" IS NULL');
  }

  /** The open session's row with its account and organisation, or null. */
  async signedIn(sessionId: string, userId: number): Promise<SessionRow | null> {
    const rows = (await this.db.query(this.signedInSql, [sessionId, userId])) as SessionRow[];
    return rows.length === 1 ? rows[0] : null;
  }

  /** The open session's policy row for the refresh and step-up doors, or null. */
  async door(sessionId: string): Promise<DoorRow | null> {
    const rows = (await this.db.query(this.doorSql, [sessionId])) as DoorRow[];
    return rows.length === 1 ? rows[0] : null;
  }

  /** Records the session's last call (ms), while it is open. */
  async recordUse(sessionId: string, at: number): Promise<void> {
    await this.db.query(this.lastUsedSql, [storedDate(this.db, new Date(at)), sessionId]);
  }
}
