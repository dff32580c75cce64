import {
  OIDC_CLIENT_MESSAGES as M,
  OIDC_REDIRECT_URI_MAX,
  OIDC_REDIRECT_URIS_MAX,
  type OidcClientType,
} from '@shared/oidc-clients';

/** The loopback hosts on which a public (native) application may receive its code over plain http (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'];

/** The addresses of a one-per-line field: each line trimmed, blank lines and repeats left out. */
export function uriLines(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return [...new Set(lines)];
}

/**
 * Whether the provider would accept an address as a redirect URI of an application of this type: absolute, no
 * fragment, https; or http on a loopback host for a public application.
 */
export function redirectUriAllowed(uri: string, type: OidcClientType): boolean {
  if (uri.length > OIDC_REDIRECT_URI_MAX || uri.includes('#')) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && type === 'public' && LOOPBACK_HOSTS.includes(url.hostname);
}

/** The message for a one-per-line list of redirect URIs, or null when the list is fine. */
export function redirectUrisError(text: string, type: OidcClientType, required: boolean): string | null {
  const uris = uriLines(text);
  if (uris.length === 0) return required ? M.REDIRECT_URIS_REQUIRED : null;
  if (uris.length > OIDC_REDIRECT_URIS_MAX) return M.REDIRECT_URIS_TOO_MANY;
  const wrong = uris.find((uri) => !redirectUriAllowed(uri, type));
  return wrong === undefined ? null : `${wrong}: ${M.REDIRECT_URI_INVALID}`;
}

/** The message for the back-channel logout URI (optional; https only), or null when it is fine. */
export function logoutUriError(text: string): string | null {
  const uri = text.trim();
  if (!uri) return null;
  return redirectUriAllowed(uri, 'confidential') ? null : M.LOGOUT_URI_INVALID;
}
