import { DataSource, IsNull } from 'typeorm';
import { maySignIn } from '../credentials/may-sign-in';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { Session } from '../sessions';
import { APPLICATIONS } from '../../shared/api-types';
import { OidcApplication } from '../../shared/identity/oidc-clients';
import { ROLE_CODES } from '../../shared/roles';
import { OidcSessionLink } from './entities/oidc-session-link.entity';
import { OIDC_LIFETIMES } from './oidc-lifetimes';

/** The claims of each scope (docs/oidc-provider.md); `sub`, `sid`, `auth_time` and `amr` come with `openid`. */
export const OIDC_SCOPE_CLAIMS = {
  openid: ['sub', 'sid', 'auth_time', 'amr'],
  email: ['email', 'email_verified'],
  profile: ['name', 'given_name', 'family_name'],
  organisation: ['org_id', 'org_code', 'org_name', 'roles', 'applications'],
} as const;

/** The organisation's applications as the `applications` claim names them. */
const APPLICATION_NAMES: Record<string, OidcApplication> = {
  [APPLICATIONS.TAX_MANAGER]: 'tax-manager',
  [APPLICATIONS.CA_VIEWER]: 'corporate-actions-viewer',
};

/**
 * The `amr` values (RFC 8176) of a portal session, from the factors it recorded when it was opened (SESSION_METHODS):
 * `pwd` a password, `otp` a one-time code (authenticator, e-mailed or recovery code), `hwk` a passkey (`user`: its
 * user verification), `fed` the organisation's own identity provider, `mfa` more than one factor. A device the
 * account trusts stands in for the second factor it passed when it was trusted, as at the portal's own sign-in.
 */
export function amrOf(method: string): string[] {
  switch (method) {
    case 'sso':
      return ['fed'];
    case 'passkey':
      return ['hwk', 'user'];
    case 'password+passkey':
      return ['pwd', 'hwk', 'mfa'];
    case 'password+totp':
    case 'password+email':
    case 'password+recovery':
      return ['pwd', 'otp', 'mfa'];
    case 'password+device':
      return ['pwd', 'mfa'];
    default:
      return ['pwd'];
  }
}

/**
 * Whether a portal session proved a second factor (what `acr_values=mfa` asks for): more than one factor, or a
 * passkey with its user verification (something held and something known or been).
 */
export function isMultiFactor(method: string): boolean {
  const amr = amrOf(method);
  return amr.includes('mfa') || amr.includes('user');
}

/** The `acr` of a portal session: `mfa` with a second factor, else `pwd` (one factor). */
export function acrOf(method: string): 'mfa' | 'pwd' {
  return isMultiFactor(method) ? 'mfa' : 'pwd';
}

/** The account as oidc-provider's findAccount answers it. */
export interface OidcAccount {
  accountId: string;
  /** How long a refresh token may go unused, and live at most, for this account's organisation (seconds). */
  refreshIdleSeconds: number;
  refreshMaxSeconds: number;
  claims: (use: string, scope: string) => Promise<Record<string, unknown>>;
}

/** What findAccount is handed besides the subject: a code or token, which names the grant it belongs to. */
interface TokenLike {
  grantId?: string;
}

/**
 * oidc-provider's findAccount: the account (active, in an organisation), and, when a code or token asks, only while
 * the portal session its grant was made in is open, so that ending the portal session stops its applications' tokens
 * on every instance at once. The claims come from the account and organisation as they are now.
 */
export function accountFinder(db: DataSource) {
  return async (_ctx: unknown, sub: string, token?: TokenLike): Promise<OidcAccount | undefined> => {
    const id = Number(sub);
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const user = await db.getRepository(User).findOneBy({ id });
    if (!user || !maySignIn(user)) return undefined;
    if (token !== undefined) {
      if (typeof token.grantId !== 'string') return undefined;
      const link = await db.getRepository(OidcSessionLink).findOneBy({ grantId: token.grantId });
      if (!link || link.userId !== id || link.loggedOutAt) return undefined;
      const open = await db.getRepository(Session).countBy({ id: link.portalSessionId, endedAt: IsNull() });
      if (open === 0) return undefined;
    }
    const org = await db.getRepository(Organisation).findOneBy({ id: user.organisationId });
    if (!org) return undefined;
    return {
      accountId: String(user.id),
      refreshIdleSeconds: org.sessionIdleMinutes ? org.sessionIdleMinutes * 60 : OIDC_LIFETIMES.REFRESH_IDLE_SECONDS,
      refreshMaxSeconds: org.sessionMaxHours ? org.sessionMaxHours * 3600 : OIDC_LIFETIMES.REFRESH_MAX_SECONDS,
      claims: async (_use: string, scope: string) => {
        const scopes = new Set((scope ?? '').split(' '));
        return {
          sub: String(user.id),
          ...(scopes.has('email') ? { email: user.email, email_verified: true } : {}),
          ...(scopes.has('profile')
            ? {
                name: `${user.firstName} ${user.lastName}`.trim(),
                given_name: user.firstName,
                family_name: user.lastName,
              }
            : {}),
          ...(scopes.has('organisation')
            ? {
                org_id: String(org.id),
                org_code: org.code,
                org_name: org.name,
                roles: user.roles.map((r) => ROLE_CODES[r]),
                applications: (org.applications ?? []).map((a) => APPLICATION_NAMES[a]).filter(Boolean),
              }
            : {}),
        };
      },
    };
  };
}
