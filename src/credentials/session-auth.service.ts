import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppException } from '../common/app.exception';
import { AuthUser } from '../common/auth-user';
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

  /**
   * The one check of an access token, for the HTTP guard, the notifications socket and GET /auth/status:
   * its signature and expiry, then its open session and an account that may sign in, in one lookup.
   * No token or a bad one is 401, an expired one the spec's 403 'jwt expired', an ended session 401 SESSION_ENDED.
   */
  async authenticate(token: string | undefined): Promise<SignedIn> {
    const payload = this.tokens.verifyAccessToken(token);
    const rows = (await this.db.query(this.sql, [payload.sid, payload.sub])) as Row[];
    const found = rows.length === 1 ? toSignedIn(rows[0], payload.sid, payload.exp) : null;
    if (!found || !maySignIn(found)) throw AppException.unauthorized(SESSION_ENDED_MESSAGE, ERROR_CODES.SESSION_ENDED);
    return found;
  }

  /** The caller of an HTTP request (`Authorization: Bearer <access token>`). */
  authenticateHeader(authorization: string | undefined): Promise<SignedIn> {
    return this.authenticate(bearer(authorization));
  }
}

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again.';

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
