import { isIP } from 'node:net';
import { AppException } from '../common/app.exception';
import { isPublicAddress } from '../common/http/safe-fetch';
import { OIDC_CLIENT_MESSAGES, OidcClientType } from '../shared/oidc-clients';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A redirect (or post-logout redirect) URI an application registers (docs/oidc-provider.md): absolute, no fragment,
 * no user or password; https, or http on loopback for a public (native) application (RFC 8252 §7.3), or any http
 * with ALLOW_PRIVATE_NETWORKS=true. It is matched exactly, character for character, at every sign-in.
 */
export function checkRedirectUri(text: string, type: OidcClientType, allowPrivateNetworks: boolean): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw AppException.badRequest(OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID);
  }
  if (url.hash || text.includes('#') || url.username || url.password)
    throw AppException.badRequest(OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID);
  if (url.protocol === 'https:') return text;
  if (
    url.protocol === 'http:' &&
    (allowPrivateNetworks || (type === 'public' && LOOPBACK_HOSTS.has(url.host.replace(/:\d+$/, ''))))
  )
    return text;
  throw AppException.badRequest(OIDC_CLIENT_MESSAGES.REDIRECT_URI_INVALID);
}

/** Where logout tokens are posted: https to a public address, unless ALLOW_PRIVATE_NETWORKS=true. */
export function checkLogoutUri(text: string, allowPrivateNetworks: boolean): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw AppException.badRequest(OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID);
  }
  const protocols = allowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(url.protocol) || url.hash || url.username || url.password)
    throw AppException.badRequest(OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const inward = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host));
  if (inward && !allowPrivateNetworks) throw AppException.badRequest(OIDC_CLIENT_MESSAGES.LOGOUT_URI_INVALID);
  return text;
}
