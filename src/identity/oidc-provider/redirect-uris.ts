import { isIP } from 'node:net';
import { AppException } from '../../platform/web/app.exception';
import { isPublicAddress } from '../../platform/web/http/safe-fetch';
import {
  logoutUriAllowed,
  OIDC_CLIENT_MESSAGES,
  OidcClientType,
  redirectUriAllowed,
} from '../../shared/identity/oidc-clients';

/**
 * A redirect (or post-logout redirect) URI an application registers: the shared rule (redirectUriAllowed), or 400.
 * It is matched exactly, character for character, at every sign-in.
 */
export function checkRedirectUri(text: string, type: OidcClientType, allowPrivateNetworks: boolean): string {
  if (!redirectUriAllowed(text, type, allowPrivateNetworks))
    throw AppException.badRequest(OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID);
  return text;
}

/**
 * Where logout tokens are posted: the shared rule's form (logoutUriAllowed), and a public address unless
 * ALLOW_PRIVATE_NETWORKS=true (the server posts there itself).
 */
export function checkLogoutUri(text: string, allowPrivateNetworks: boolean): string {
  if (!logoutUriAllowed(text, allowPrivateNetworks))
    throw AppException.badRequest(OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID);
  const host = new URL(text).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const inward = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host));
  if (inward && !allowPrivateNetworks) throw AppException.badRequest(OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID);
  return text;
}
