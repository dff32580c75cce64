/**
 * The portal as the suite's OpenID provider (docs/oidc-provider.md): the applications registered with it, the
 * scopes and claims they may ask for, and the API's shapes. Server and client import this file.
 */

/** A confidential application keeps a secret (a server); a public one cannot (a native or browser app, PKCE only). */
export const OIDC_CLIENT_TYPES = ['confidential', 'public'] as const;
export type OidcClientType = (typeof OIDC_CLIENT_TYPES)[number];

/** The scopes an application may ask for, and what each lets it read, for consent screens and lists. */
export const OIDC_SCOPES = ['openid', 'email', 'profile', 'organisation', 'offline_access'] as const;
export type OidcScope = (typeof OIDC_SCOPES)[number];
export const OIDC_SCOPE_LABELS: Record<OidcScope, string> = {
  openid: 'Know who you are (your account id)',
  email: 'Your e-mail address',
  profile: 'Your first and last name',
  organisation: 'Your organisation, your roles and the applications your organisation holds',
  offline_access: 'Stay signed in while your portal session lasts',
};

/** The application names the `applications` claim carries, as the organisation holds them. */
export const OIDC_APPLICATIONS = ['tax-manager', 'corporate-actions-viewer'] as const;
export type OidcApplication = (typeof OIDC_APPLICATIONS)[number];

export const OIDC_CLIENT_NAME_MAX = 100;
export const OIDC_REDIRECT_URI_MAX = 2048;
/** Redirect URIs (and, separately, post-logout redirect URIs) one application may register. */
export const OIDC_REDIRECT_URIS_MAX = 10;
/** Applications per organisation (and of the deployment). */
export const OIDC_CLIENTS_MAX = 50;
/** An application's use is written (lastUsedAt) at most once in this long. */
export const OIDC_CLIENT_USE_RECORD_MS = 60_000;

/** The loopback hosts on which a public (native) application may receive its code over plain http (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'];

/** An absolute http(s) address without a fragment, user or password, at most OIDC_REDIRECT_URI_MAX long; or null. */
function plainAddress(uri: string): URL | null {
  if (uri.length > OIDC_REDIRECT_URI_MAX || uri.includes('#')) return null;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.username || url.password || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  return url;
}

/**
 * Whether an application may register this redirect (or post-logout redirect) URI (docs/oidc-provider.md), the one
 * rule of the server and of the client's form: absolute, no fragment, no user or password; https, or http on loopback
 * for a public (native) application, or any http where the deployment allows private networks
 * (ALLOW_PRIVATE_NETWORKS, which GET /api/app-info tells the client). Matched exactly at every sign-in.
 */
export function redirectUriAllowed(uri: string, type: OidcClientType, allowPrivateNetworks: boolean): boolean {
  const url = plainAddress(uri);
  if (!url) return false;
  if (url.protocol === 'https:') return true;
  return allowPrivateNetworks || (type === 'public' && LOOPBACK_HOSTS.includes(url.hostname));
}

/**
 * Whether a back-channel logout URI has the right form: https, or any http where the deployment allows private
 * networks. The server also refuses, unless it allows private networks, one naming a private or loopback address.
 */
export function logoutUriAllowed(uri: string, allowPrivateNetworks: boolean): boolean {
  const url = plainAddress(uri);
  return !!url && (url.protocol === 'https:' || allowPrivateNetworks);
}

/** POST /api/oidc-clients (E-Support: `?organisationId=` for an organisation's application, else the deployment's) */
export interface CreateOidcClientRequest {
  name: string;
  type: OidcClientType;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /** Where back-channel logout tokens are posted; https (any http with ALLOW_PRIVATE_NETWORKS=true). */
  backchannelLogoutUri?: string | null;
}

/** PUT /api/oidc-clients/{id}: the fields named change; the type never does. */
export interface UpdateOidcClientRequest {
  name?: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string | null;
}

/** One application as GET /api/oidc-clients lists it: never its secret. */
export interface OidcClientItem {
  id: number;
  /** The `client_id` the application sends. */
  clientId: string;
  name: string;
  type: OidcClientType;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  /** Null: one of the deployment's applications (every organisation's members, no consent screen). */
  organisationId: number | null;
  createdAt: string;
  /** The latest token or sign-in it obtained, to the minute. */
  lastUsedAt: string | null;
}

/** POST /api/oidc-clients: the application with its secret (confidential only), shown this once. */
export interface NewOidcClient extends OidcClientItem {
  clientSecret?: string;
}

/** POST /api/oidc-clients/{id}/rotate-secret: the new secret, shown this once; the old one stops at once. */
export interface RotatedOidcClientSecret {
  clientSecret: string;
}

/** One row of GET /api/me/apps: an application that signed me in, with what it may read. */
export interface MyOidcApp {
  clientId: string;
  name: string;
  scopes: string[];
  grantedAt: string;
  lastUsedAt: string | null;
}

/** POST /api/oidc/keys/rotate (E-Support): the new signing key's id; the previous keys stay published. */
export interface RotatedOidcSigningKey {
  kid: string;
  alg: 'ES256' | 'RS256';
  /** Key ids still published in the JWKS (the new one first) until the tokens they signed have expired. */
  publishedKids: string[];
}

export const OIDC_CLIENT_MESSAGES = {
  NAME_REQUIRED: 'Give the application a name.',
  NAME_TOO_LONG: `The name can be at most ${OIDC_CLIENT_NAME_MAX} characters.`,
  TYPE_INVALID: `type must be one of ${OIDC_CLIENT_TYPES.join(', ')}.`,
  REDIRECT_URIS_REQUIRED: 'Enter at least one redirect URI.',
  REDIRECT_URIS_TOO_MANY: `An application can have at most ${OIDC_REDIRECT_URIS_MAX} redirect URIs.`,
  REDIRECT_URI_INVALID:
    'A redirect URI is an absolute https:// address without a fragment (http:// only on 127.0.0.1, [::1] or localhost for a public application).',
  LOGOUT_URI_INVALID: 'The back-channel logout URI must be an absolute https:// address without a fragment.',
  NOT_FOUND: 'Application not found.',
  TOO_MANY_CLIENTS: `At most ${OIDC_CLIENTS_MAX} applications can be registered here. Remove one first.`,
  VENDOR_NO_CLIENTS:
    "The vendor organisation's applications are the deployment's: register them without organisationId.",
  PUBLIC_NO_SECRET: 'A public application has no secret.',
  APP_NOT_FOUND: 'You have not given this application access.',
} as const;
