import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import Provider, { Check, ClientLike, interactionPolicy, KoaContextLike, OidcContext } from 'oidc-provider';
import { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource, IsNull, LessThan, Or } from 'typeorm';
import { RATE_LIMITS } from '../../platform/web/throttling/rate-limits';
import { OIDC_CLIENT_USE_RECORD_MS } from '../../shared/identity/oidc-clients';
import { OidcClient } from './entities/oidc-client.entity';
import { OidcConsent } from './entities/oidc-consent.entity';
import { createSafeFetch } from '../../platform/web/http/safe-fetch';
import { runPeriodically } from '../../platform/jobs/periodic';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { OidcSessionLink } from './entities/oidc-session-link.entity';
import { accountFinder, OIDC_SCOPE_CLAIMS, OidcAccount } from './oidc-account';
import { databaseAdapter, deleteExpiredRecords } from './oidc-adapter';
import { OidcKeysService } from './oidc-keys.service';
import { OIDC_LIFETIMES } from './oidc-lifetimes';
import { errorPage, loggedOutPage, logoutPage, originsOf, pageCsp } from './oidc-pages';
import { DISCOVERY_PATH, INTERACTION_PATH, OIDC_PATH, SILENT_PARAM } from './oidc-paths';
import { OidcInteractions } from './oidc-interactions';
import { PortalSession, PortalSessionReader } from './portal-session';
import { Session, SessionsService } from '../sessions';

/** What an interaction policy check answers (the library's Check.REQUEST_PROMPT and Check.NO_NEED_TO_PROMPT). */
const REQUEST_PROMPT = true;
const NO_NEED_TO_PROMPT = false;

const ROUTES = {
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

/** The endpoints where an application authenticates with its secret. */
const SECRET_CHECKING = new Set([ROUTES.token, ROUTES.introspection, ROUTES.revocation]);

/** Only asymmetric signatures are made or accepted: never `none`, never HMAC. */
const ASYMMETRIC = ['ES256', 'RS256'];

/** How often an instance checks whether another rotated the signing keys. */
const KEY_CHECK_MS = 15_000;
/** How often expired records (codes, tokens, interactions, sessions) are deleted, and how many at a time. */
const SWEEP_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

/** The portal session a request to the provider came with, read once per request by the bridge. */
interface BridgeState {
  portal?: PortalSession;
}

function stateOf(ctx: KoaContextLike): BridgeState {
  return ctx.state as BridgeState;
}

/**
 * The portal's OpenID provider (docs/oidc-provider.md): oidc-provider, an OpenID Certified library, configured with
 * the product's storage, keys, accounts and sign-in, and mounted in the same Express application under /oidc/.
 * Its signing keys are fixed when it is built, so a rotation (here or on another instance) builds it again.
 */
@Injectable()
export class OidcProviderService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('OidcProvider');
  private provider?: Provider;
  private callback?: (req: Request, res: Response) => void;
  private keysVersion = '';
  private readonly stops: Array<() => void> = [];

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: OidcKeysService,
    private readonly portal: PortalSessionReader,
    private readonly sessions: SessionsService,
    @Inject(ThrottlerStorage) private readonly throttler: ThrottlerStorage,
    private readonly interactions: OidcInteractions,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.build();
    this.stops.push(
      runPeriodically(() => this.rebuildWhenKeysChanged(), {
        firstDelayMs: KEY_CHECK_MS,
        everyMs: KEY_CHECK_MS,
        logger: this.logger,
        what: 'The signing keys check',
      }),
      runPeriodically(() => deleteExpiredRecords(this.db, new Date(), SWEEP_BATCH), {
        firstDelayMs: 60_000,
        everyMs: SWEEP_MS,
        logger: this.logger,
        what: 'The sweep of expired provider records',
      }),
    );
  }

  onModuleDestroy(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** The provider as built now (its keys current). */
  get current(): Provider {
    if (!this.provider) throw new Error('The OpenID provider is not built yet');
    return this.provider;
  }

  /** Set by the logout service: a logout token the library failed to deliver, to be retried. */
  private backchannelFailed?: (logout: { clientId: string; sub: string; sid: string }, err: unknown) => void;

  onBackchannelFailure(handler: (logout: { clientId: string; sub: string; sid: string }, err: unknown) => void): void {
    this.backchannelFailed = handler;
  }

  /** Builds the provider again with the signing keys as they are in the database now. */
  async build(): Promise<void> {
    const jwks = await this.keys.signingKeys();
    this.keysVersion = await this.keys.version();
    const provider = new Provider(this.config.publicUrl, this.configuration(jwks));
    // Koa's own reading of X-Forwarded-* (the scheme behind a TLS-ending proxy); the client address is never Koa's
    // (its left-most X-Forwarded-For entry) but Express's `req.ip`, from the portal's one rule.
    provider.proxy = 'hops' in this.config.trustProxy ? this.config.trustProxy.hops > 0 : true;
    provider.use((ctx, next) => this.bridge(ctx, next));
    provider.on(
      'backchannel.error',
      (_ctx: unknown, err: unknown, client: unknown, accountId: unknown, sid: unknown) => {
        const clientId = (client as ClientLike | undefined)?.clientId;
        if (typeof clientId === 'string' && typeof accountId === 'string' && typeof sid === 'string')
          this.backchannelFailed?.({ clientId, sub: accountId, sid }, err);
      },
    );
    provider.on('server_error', (_ctx: unknown, err: unknown) =>
      this.logger.error(`OpenID provider error: ${(err as Error)?.message ?? String(err)}`),
    );
    this.provider = provider;
    this.callback = provider.callback() as unknown as (req: Request, res: Response) => void;
  }

  private async rebuildWhenKeysChanged(): Promise<void> {
    if ((await this.keys.version()) !== this.keysVersion) await this.build();
  }

  /** The Express middleware: the provider's paths to it (and the interactions to theirs), everything else on. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    if (path === DISCOVERY_PATH || path === `${OIDC_PATH}${DISCOVERY_PATH}`) {
      if (path !== DISCOVERY_PATH) req.url = DISCOVERY_PATH;
      this.callback!(req, res);
      return;
    }
    if (!path.startsWith(`${OIDC_PATH}/`)) return next();
    if (path.startsWith(`${INTERACTION_PATH}/`))
      return void this.interactions.handle(req, res, this.current).catch(next);
    // The endpoints that check an application's secret are throttled per address, as the portal's anonymous calls are.
    if (req.method === 'POST' && SECRET_CHECKING.has(path)) {
      this.throttle(req, res).then((allowed) => allowed && this.callback!(req, res), next);
      return;
    }
    // The JWKS is read against the database's key set, so that a key another instance just rotated in is published
    // here before any token it signs reaches a relying party.
    if (path === ROUTES.jwks) {
      this.rebuildWhenKeysChanged().then(() => this.callback!(req, res), next);
      return;
    }
    this.callback!(req, res);
  };

  /**
   * Runs around every request the provider answers. At the authorization endpoint it reads the browser's portal
   * session once (the login check below and the interaction use it). When a live portal session meets a
   * `prompt=none` request whose provider session is not yet the portal session's, the request goes on as an
   * interaction that shows nothing (marked silent): the interaction signs in with the portal session at once, or
   * answers `login_required`/`consent_required` as `prompt=none` would. After an authorization succeeded, the
   * grant's link to its portal session learns the provider session and `sid`, so that ending one ends the other.
   */
  private async bridge(ctx: KoaContextLike, next: () => Promise<void>): Promise<void> {
    const authorization = ctx.path === ROUTES.authorization || ctx.path.startsWith(`${ROUTES.authorization}/`);
    if (authorization) {
      const portal = await this.portal.read(ctx.req.cookies, ctx.req.ip);
      stateOf(ctx).portal = portal;
      const prompt = typeof ctx.query.prompt === 'string' ? ctx.query.prompt.split(' ') : [];
      if (ctx.method === 'GET' && portal.state === 'live' && prompt.includes('none')) {
        const query = { ...ctx.query };
        const others = prompt.filter((p) => p !== 'none');
        if (others.length > 0) query.prompt = others.join(' ');
        else delete query.prompt;
        query[SILENT_PARAM] = '1';
        ctx.query = query;
      }
    }
    await next();
    const oidc = ctx.oidc;
    if (oidc?.route === 'end_session_confirm' && oidc.params?.logout && oidc.session) {
      // RP-initiated logout ends the portal session too (and through it, every application it signed into). The
      // library has just revoked this provider session's grants and told their applications: their links are done
      // (a failed logout token comes back through 'backchannel.error' to be retried).
      const repo = this.db.getRepository(OidcSessionLink);
      const links = await repo.findBy({ opSessionUid: oidc.session.uid });
      await repo.update({ opSessionUid: oidc.session.uid, loggedOutAt: IsNull() }, { loggedOutAt: new Date() });
      for (const portalSessionId of new Set(links.map((l) => l.portalSessionId)))
        await this.sessions.end(portalSessionId, 'logout');
      return;
    }
    if (oidc?.route === 'introspection' && (ctx.body as { active?: boolean } | undefined)?.active === true) {
      // A token of an ended portal session is inactive from that moment, before the sweep revokes it.
      const grant = oidc.entities.Grant as { jti?: string } | undefined;
      if (!grant?.jti || !(await this.grantLive(grant.jti))) ctx.body = { active: false };
      return;
    }
    if (oidc?.route === 'token' && ctx.status === 200 && oidc.client) {
      await this.recordUse(oidc.client.clientId, oidc.account?.accountId);
      return;
    }
    // After a sign-in: the grant's provider session and the `sid` its ID tokens carry, for back-channel logout.
    const clientId = oidc?.client?.clientId;
    const authorizationOf = clientId ? oidc?.session?.authorizations?.[clientId] : undefined;
    if (!authorization || !clientId || !authorizationOf?.grantId || !oidc?.session?.accountId) return;
    const portal = stateOf(ctx).portal;
    if (portal?.state !== 'live' || String(portal.user.id) !== oidc.session.accountId) return;
    await this.db
      .getRepository(OidcSessionLink)
      .update(
        { grantId: authorizationOf.grantId, portalSessionId: portal.sessionId },
        { opSessionUid: oidc.session.uid, sid: authorizationOf.sid ?? null },
      );
  }

  /** Whether a grant's portal session is still open. */
  private async grantLive(grantId: string): Promise<boolean> {
    const link = await this.db.getRepository(OidcSessionLink).findOneBy({ grantId });
    if (!link || link.loggedOutAt) return false;
    return (await this.db.getRepository(Session).countBy({ id: link.portalSessionId, endedAt: IsNull() })) > 0;
  }

  /** Counts the call against its address's budget; answers 429 (the OAuth error body) when it is spent. */
  private async throttle(req: Request, res: Response): Promise<boolean> {
    const record = await this.throttler.increment(
      `oidc:${req.ip ?? 'unknown'}`,
      RATE_LIMITS.WINDOW_MS,
      RATE_LIMITS.PER_ADDRESS_ANONYMOUS * this.config.rateLimitScale,
      0,
      'oidc',
    );
    if (!record.isBlocked) return true;
    res
      .status(429)
      .set('Retry-After', String(Math.max(1, Math.ceil(record.timeToBlockExpire))))
      .json({ error: 'invalid_request', error_description: 'Too many requests: try again later.' });
    return false;
  }

  /** An application's latest use (and its member's), written at most once a minute each. */
  private async recordUse(clientId: string, accountId: string | undefined): Promise<void> {
    const now = new Date();
    const stale = Or(IsNull(), LessThan(new Date(now.getTime() - OIDC_CLIENT_USE_RECORD_MS)));
    await this.db.getRepository(OidcClient).update({ clientId, lastUsedAt: stale }, { lastUsedAt: now });
    if (accountId !== undefined && /^\d+$/.test(accountId))
      await this.db
        .getRepository(OidcConsent)
        .update({ clientId, userId: Number(accountId), lastUsedAt: stale }, { lastUsedAt: now });
  }

  /** The login prompt's first check: the provider session must be the browser's live portal session. */
  private portalSessionCheck(): Check {
    return new interactionPolicy.Check(
      'portal_session',
      'End-User authentication is required',
      'login_required',
      async (ctx) => {
        const { oidc } = ctx;
        const session = oidc.session;
        if (!session?.accountId) return NO_NEED_TO_PROMPT; // the library's own no_session check asks
        // Just signed in by the interaction, which read the portal session itself.
        if (oidc.result?.login) return NO_NEED_TO_PROMPT;
        const portal = stateOf(ctx).portal;
        if (portal?.state !== 'live' || String(portal.user.id) !== session.accountId) return REQUEST_PROMPT;
        const acrValues = typeof oidc.params?.acr_values === 'string' ? oidc.params.acr_values.split(' ') : [];
        if (acrValues.includes('mfa') && session.acr !== 'mfa') return REQUEST_PROMPT;
        // max_age counts from the portal session's latest proof of identity (its sign-in or step-up).
        const maxAge = oidc.params?.max_age === undefined ? undefined : Number(oidc.params.max_age);
        if (maxAge !== undefined && Date.now() - portal.user.authenticatedAt.getTime() > maxAge * 1000)
          return REQUEST_PROMPT;
        // The application's grant in this provider session must have been made in this very portal session.
        const grantId = oidc.client ? session.authorizations?.[oidc.client.clientId]?.grantId : undefined;
        if (!grantId) return REQUEST_PROMPT;
        const link = await this.db.getRepository(OidcSessionLink).findOneBy({ grantId });
        return link?.portalSessionId === portal.sessionId && !link.loggedOutAt ? NO_NEED_TO_PROMPT : REQUEST_PROMPT;
      },
    );
  }

  private configuration(jwks: unknown[]): Record<string, unknown> {
    const policy = interactionPolicy.base();
    policy.get('login')!.checks.unshift(this.portalSessionCheck());
    const secure = this.config.publicUrl.startsWith('https:');
    const safeFetch = createSafeFetch({
      allowPrivateNetworks: this.config.allowPrivateNetworks,
      connectTimeoutMs: 5_000,
      timeoutMs: 10_000,
      maxBytes: 1024 * 1024,
      maxRedirects: 0,
    });
    return {
      adapter: databaseAdapter(this.db, this.config.encryptionKey),
      findAccount: accountFinder(this.db),
      jwks: { keys: jwks },
      cookies: {
        keys: this.keys.cookieKeys(),
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
}
