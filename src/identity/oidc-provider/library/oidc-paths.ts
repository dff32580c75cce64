/** Where the provider lives: every endpoint under /oidc/, discovery at the issuer's well-known address. */
export const OIDC_PATH = '/oidc';
export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const INTERACTION_PATH = `${OIDC_PATH}/interaction`;

/** The extra authorization parameter the bridge sets when it turns `prompt=none` into an invisible interaction. */
export const SILENT_PARAM = 'portal_silent';
