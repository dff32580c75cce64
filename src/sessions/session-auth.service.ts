import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppException } from '../common/app.exception';
import { AuthUser } from '../common/auth-user';
import { TokenService } from '../auth/token.service';
import { CurrentUserInfo } from '../shared/api-types';
import { effectiveRoles, ROLE_CODES, ROLE_NAMES } from '../shared/roles';

/** A signed-in caller as one lookup finds them: the account, its organisation, the open session. */
export interface SignedIn {
  user: AuthUser;
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
}

const COLUMNS = `u."id", u."email", u."firstName", u."lastName", u."organisationId", u."roleId", u."isAdministrator", u."isDisabled",
  u."isBlocked", u."isMFAEnforced", u."isMFAEnabled", u."hasPasskey", u."isSSO", o."code" AS "organisationCode", o."name" AS "organisationName", o."applications"`;
const FROM = `FROM "sessions" s JOIN "users" u ON u."id" = s."userId" JOIN "organisations" o ON o."id" = u."organisationId"`;

/**
 * Who is calling, decided once for HTTP and the notifications socket alike: the access token's
 * signature and expiry, then ONE query for its session (still open), the account and its organisation.
 * Nothing is cached, so a session ended by logout, force log-off, a disabled account, a password or an
 * MFA change is refused on the very next call.
 */
@Injectable()
export class SessionAuthService {
  private readonly sql: string;

  constructor(
    private readonly db: DataSource,
    private readonly tokens: TokenService,
  ) {
    const postgres = db.options.type === 'postgres';
    this.sql = `SELECT ${COLUMNS} ${FROM} WHERE s."id" = ${postgres ? '$1' : '?'} AND s."endedAt" IS NULL AND u."id" = ${postgres ? '$2' : '?'}`;
  }

  /** The caller of an HTTP request (`Authorization: Bearer <access token>`), or the spec's 401/403. */
  async authenticate(authorization: string | undefined): Promise<SignedIn> {
    const payload = this.tokens.verifyAccess(authorization);
    const found = await this.lookup(payload.sid, payload.sub);
    if (!found || found.isDisabled || found.isBlocked) throw AppException.unauthorized('Your session has ended. Please log in again.', 'SESSION_ENDED');
    return found;
  }

  /** The open session `sessionId` of user `userId`, with the account and its organisation; null when ended. */
  async lookup(sessionId: string, userId: number): Promise<SignedIn | null> {
    const rows = (await this.db.query(this.sql, [sessionId, userId])) as Row[];
    return rows.length === 1 ? toSignedIn(rows[0], sessionId) : null;
  }
}

function toSignedIn(r: Row, sessionId: string): SignedIn {
  const roles = effectiveRoles(r.roleId, Boolean(r.isAdministrator));
  const isMFAEnforced = Boolean(r.isMFAEnforced);
  const isMFAEnabled = Boolean(r.isMFAEnabled);
  const hasPasskey = Boolean(r.hasPasskey);
  const applications = typeof r.applications === 'string' ? (JSON.parse(r.applications) as string[]) : r.applications;
  return {
    user: { id: r.id, email: r.email, organisationId: r.organisationId, sessionId, roles, isMFAEnforced, isMFAEnabled, hasPasskey },
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
