import type { ApiKeyScope } from '../../shared/administration/api-keys';
import { AppException } from './app.exception';
import { Role } from '../../shared/roles';

/** An organisation API key making the call (docs/api-keys.md): a key, not an account. */
export interface ApiKeyCaller {
  id: number;
  name: string;
  scopes: readonly ApiKeyScope[];
}

/**
 * A support-access session (docs/support-access.md): the caller is the member, and this names the E-Support account
 * acting for them. Read from the session's row on every call, never from the token's `act` claim.
 */
export interface SupportContext {
  /** The support-access request the session was started under. */
  accessId: number;
  /** The E-Support account acting. */
  actorId: number;
  actorEmail: string;
  actorOrganisationId: number;
  /** The session's end: its start and 60 minutes. */
  endsAt: Date;
}

/** The authenticated caller, as the JWT guard puts it on the request. */
export interface AuthUser {
  id: number;
  email: string;
  organisationId: number;
  sessionId: string;
  roles: Role[];
  isMFAEnforced: boolean;
  isMFAEnabled: boolean;
  /** Passkeys: the account has a passkey, which satisfies enforced MFA as TOTP does. */
  hasPasskey: boolean;
  /** When the session's holder last proved who they are: its sign-in, or its latest step-up (docs/product-rules.md §7). */
  authenticatedAt: Date;
  /** The factors the session was opened with (SESSION_METHODS of src/shared/administration/insights.ts), or 'api-key'. */
  signInMethod: string;
  /** The organisation's name as the sign-in lookup read it (the user list needs no second read for it). */
  organisationName?: string;
  /**
   * Set when an organisation API key calls: it acts as an Administrator of its organisation (roles), within its
   * scopes; `id` is then 0, which no account has, so it is never "the caller's own account".
   */
  apiKey?: ApiKeyCaller;
  /** Set in a support-access session: the E-Support account acting as this member. */
  support?: SupportContext;
}

export { mfaPending } from '../../shared/identity/mfa-rules';

/** Until when the caller's last proof of identity lets sensitive calls through (docs/product-rules.md §7). */
export function stepUpUntil(user: Pick<AuthUser, 'authenticatedAt'>, minutes: number): Date {
  return new Date(user.authenticatedAt.getTime() + minutes * 60_000);
}

/** E-Support accounts work across organisations (docs/product-rules.md §2). */
export function isSupport(user: AuthUser): boolean {
  return user.roles.includes(Role.E_SUPPORT);
}

/** Whether the caller may see data of the given organisation. */
export function canAccessOrganisation(user: AuthUser, organisationId: number): boolean {
  return isSupport(user) || user.organisationId === organisationId;
}

/**
 * The organisation a call works on: the caller's own, or the one E-Support names (`?organisationId=`). Any other
 * organisation is a 404, so a caller learns nothing of organisations it may not see.
 */
export function managedOrganisationId(caller: AuthUser, organisationId?: number): number {
  const id = organisationId ?? caller.organisationId;
  if (!canAccessOrganisation(caller, id)) throw AppException.notFound('Organisation not found.');
  return id;
}
