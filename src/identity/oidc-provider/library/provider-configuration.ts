import { Check, ClientLike, interactionPolicy, KoaContextLike, OidcContext } from 'oidc-provider';
import { DataSource } from 'typeorm';
import { createSafeFetch } from '../../../platform/web/http/safe-fetch';
import { AppConfig } from '../../../platform/config/env.validation';
import { accountFinder, OIDC_SCOPE_CLAIMS, OidcAccount } from '../oidc-account';
import { databaseAdapter } from '../oidc-adapter';
import { OIDC_LIFETIMES } from '../oidc-lifetimes';
import { errorPage, loggedOutPage, logoutPage, originsOf, pageCsp } from '../oidc-pages';
import { INTERACTION_PATH, OIDC_PATH, SILENT_PARAM } from './oidc-paths';

export const ROUTES = {
  authorization: `${OIDC_PATH}/auth`,
  token: `${OIDC_PATH}/token`,
  userinfo: `${OIDC_PATH}/me`,
  jwks: `${OIDC_PATH}/jwks`,
  end_session: `${OIDC_PATH}/session/end`,
  revocation: `${OIDC_PATH}/token/revocation`,
  introspection: `${OIDC_PATH}/token/introspection`,
  pushed_authorization_request: `${OIDC_PATH}/request`,
  code_verification: `${OIDC_PATH}/device`,
  device_authorization: `${OIDC_PATH}/device/auth`,
  backchannel_authentication: `${OIDC_PATH}/backchannel`,
  registration: `${OIDC_PATH}/reg`,
  challenge: `${OIDC_PATH}/challenge`,
  credential: `${OIDC_PATH}/credential`,
};

/** Only asymmetric signatures are made or accepted: never `none`, never HMAC. */
const ASYMMETRIC = ['ES256', 'RS256'];

/** What the provider is built from: the deployment, its storage, its current keys, and the login prompt's first check. */
export interface ProviderSetup {
  config: AppConfig;
  db: DataSource;
  /** The signing keys, as JWKs. */
  jwks: unknown[];
  /** The keys its cookies are signed with. */
  cookieKeys: string[];
  /** Whether the provider session is the browser's live portal session (the portal bridge's). */
  loginCheck: Check;
}

/**
 * oidc-provider's configuration (docs/oidc-provider.md): the product's storage, accounts and keys; the code flow with
 * PKCE only, asymmetric signatures only; refresh tokens within the organisation's session limits; introspection and
 * revocation of an application's own tokens; back-channel and RP-initiated logout; the provider's own pages.
 */
export function providerConfiguration({
  config,
  db,
  jwks,
  cookieKeys,
  loginCheck,
}: ProviderSetup): Record<string, unknown> {
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.unshift(loginCheck);
  const secure = config.publicUrl.startsWith('https:');
  const safeFetch = createSafeFetch({
    allowPrivateNetworks: config.allowPrivateNetworks,
    connectTimeoutMs: 5_000,
    timeoutMs: 10_000,
    maxBytes: 1024 * 1024,
    maxRedirects: 0,
  });
  return {
    adapter: databaseAdapter(db, config.encryptionKey),
    findAccount: accountFinder(db),
    jwks: { keys: jwks },
    cookies: {
      keys: cookieKeys,
      names: { session: '_oidc_session', interaction: '_oidc_interaction', resume: '_oidc_resume' },
      long: { httpOnly: true, sameSite: 'lax', secure, signed: true },
      short: { httpOnly: true, sameSite: 'lax', secure, signed: true },
    },
    claims: { acr: null, amr: null, sid: null, auth_time: null, iss: null, ...OIDC_SCOPE_CLAIMS },
    scopes: ['openid', 'offline_access', 'email', 'profile', 'organisation'],
    acrValues: ['pwd', 'mfa'],
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    enabledJWA: {
      clientAuthSigningAlgValues: ASYMMETRIC,
      idTokenSigningAlgValues: ASYMMETRIC,
      requestObjectSigningAlgValues: ASYMMETRIC,
      userinfoSigningAlgValues: ASYMMETRIC,
      introspectionSigningAlgValues: ASYMMETRIC,
      authorizationSigningAlgValues: ASYMMETRIC,
    },
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    // Browsers may call the token endpoint from a public application's own origin (a redirect URI's), and
    // userinfo from any registered application's; nothing else is shared across origins.
    clientBasedCORS: (ctx: KoaContextLike, origin: string, client: ClientLike) =>
      origin !== 'null' &&
      (ctx.oidc?.route === 'userinfo' || client.clientAuthMethod === 'none') &&
      originsOf(client.redirectUris).includes(origin),
    extraParams: [SILENT_PARAM],
    extraClientMetadata: { properties: ['organisation_id'] },
    allowOmittingSingleRegisteredRedirectUri: false,
    clockTolerance: OIDC_LIFETIMES.CLOCK_TOLERANCE_SECONDS,
    routes: ROUTES,
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}/${interaction.uid}`,
      policy,
    },
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      requestObjects: { enabled: false },
      claimsParameter: { enabled: false },
      registration: { enabled: false },
      userinfo: { enabled: true },
      // An application revokes its own tokens only.
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: ClientLike, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        // A confidential application, about its own tokens only.
        allowedPolicy: (_ctx: unknown, client: ClientLike, token: { clientId?: string }) =>
          client.clientAuthMethod !== 'none' && token.clientId === client.clientId,
      },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextLike, form: string) => {
          ctx.set('Content-Security-Policy', pageCsp(originsOf(ctx.oidc?.client?.postLogoutRedirectUris)));
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: (ctx: KoaContextLike) => {
          ctx.set('Content-Security-Policy', pageCsp());
          ctx.type = 'html';
          ctx.body = loggedOutPage();
        },
      },
    },
    ttl: {
      AccessToken: OIDC_LIFETIMES.ACCESS_TOKEN_SECONDS,
      AuthorizationCode: OIDC_LIFETIMES.AUTHORIZATION_CODE_SECONDS,
      IdToken: OIDC_LIFETIMES.ID_TOKEN_SECONDS,
      Interaction: OIDC_LIFETIMES.INTERACTION_SECONDS,
      Session: OIDC_LIFETIMES.SESSION_SECONDS,
      Grant: OIDC_LIFETIMES.REFRESH_MAX_SECONDS,
      // Unused this long it expires (each rotation starts the idle time again), and never lives past the maximum
      // counted from the first token of the sign-in: the organisation's session limits where it set them.
      RefreshToken: (ctx: { oidc?: OidcContext } | undefined, token: { iiat?: number; iat?: number }) => {
        const account = ctx?.oidc?.account as OidcAccount | undefined;
        const idle = account?.refreshIdleSeconds ?? OIDC_LIFETIMES.REFRESH_IDLE_SECONDS;
        const max = account?.refreshMaxSeconds ?? OIDC_LIFETIMES.REFRESH_MAX_SECONDS;
        const first = token.iiat ?? token.iat ?? Math.floor(Date.now() / 1000);
        const left = first + max - Math.floor(Date.now() / 1000);
        return Math.max(1, Math.min(idle, left));
      },
    },
    rotateRefreshToken: true,
    issueRefreshToken: (
      _ctx: unknown,
      client: { grantTypeAllowed(t: string): boolean },
      code: { scopes: Set<string> },
    ) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    renderError: (ctx: KoaContextLike, out: { error: string; error_description?: string }) => {
      ctx.set('Content-Security-Policy', pageCsp());
      ctx.type = 'html';
      ctx.body = errorPage(out.error, out.error_description);
    },
    fetch: (url: string, init: RequestInit & { dispatcher?: unknown }) => {
      const { dispatcher: _dispatcher, ...rest } = init;
      return safeFetch(url, rest as Parameters<typeof safeFetch>[1]);
    },
  };
}
