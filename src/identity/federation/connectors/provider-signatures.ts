import * as oidc from 'openid-client';

/** Signatures accepted on ID and logout tokens: the provider's published public keys only (no `none`, no HMAC). */
export const PROVIDER_SIGNING_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/**
 * openid-client takes an ID token from the token endpoint on the strength of TLS alone (OIDC Core 3.1.3.7); a
 * plain-http provider (SSO_ALLOW_PRIVATE_NETWORKS) or a compromised token endpoint would pass anything. This makes
 * the library check every ID token's signature against the provider's jwks_uri, through the configuration's own
 * fetch: asymmetric algorithms only (`none` and HMAC refused), its key cache refetched when a token names a key
 * it lacks (at most once a minute) and after five minutes.
 */
export function verifyIdTokenSignatures(conf: oidc.Configuration): void {
  oidc.enableNonRepudiationChecks(conf);
}
