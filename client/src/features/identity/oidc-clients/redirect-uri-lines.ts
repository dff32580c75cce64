import {
  logoutUriAllowed,
  OIDC_CLIENT_MESSAGES as M,
  OIDC_REDIRECT_URIS_MAX,
  redirectUriAllowed,
  type OidcClientType,
} from '@shared/identity/oidc-clients';

/** The provider's own rule, shared with the server (src/shared/identity/oidc-clients.ts). */
export { redirectUriAllowed };

/** The addresses of a one-per-line field: each line trimmed, blank lines and repeats left out. */
export function uriLines(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return [...new Set(lines)];
}

/** The message for a one-per-line list of redirect URIs, or null when the list is fine. */
export function redirectUrisError(
  text: string,
  type: OidcClientType,
  required: boolean,
  allowPrivateNetworks: boolean,
): string | null {
  const uris = uriLines(text);
  if (uris.length === 0) return required ? M.REDIRECT_URIS_REQUIRED : null;
  if (uris.length > OIDC_REDIRECT_URIS_MAX) return M.REDIRECT_URIS_TOO_MANY;
  const wrong = uris.find((uri) => !redirectUriAllowed(uri, type, allowPrivateNetworks));
  return wrong === undefined ? null : `${wrong}: ${M.REDIRECT_URI_INVALID}`;
}

/** The message for the back-channel logout URI (optional), or null when it is fine. */
export function logoutUriError(text: string, allowPrivateNetworks: boolean): string | null {
  const uri = text.trim();
  if (!uri) return null;
  return logoutUriAllowed(uri, allowPrivateNetworks) ? null : M.LOGOUT_URI_INVALID;
}
