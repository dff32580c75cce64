import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import Provider, { ClientLike } from 'oidc-provider';
import { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { RATE_LIMITS } from '../../platform/web/throttling/rate-limits';
import { publish } from '../../platform/events';
import { runPeriodically } from '../../platform/jobs/periodic';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { OIDC_BACKCHANNEL_FAILED } from './library/backchannel-failed';
import { deleteExpiredRecords } from './oidc-adapter';
import { OidcKeysService } from './oidc-keys.service';
import { OidcPortalBridge } from './library/portal-bridge';
import { providerConfiguration, ROUTES } from './library/provider-configuration';
import { DISCOVERY_PATH, INTERACTION_PATH, OIDC_PATH } from './library/oidc-paths';
import { OidcInteractions } from './oidc-interactions';

/** The endpoints where an application authenticates with its secret. */
const SECRET_CHECKING = new Set([ROUTES.token, ROUTES.introspection, ROUTES.revocation]);

/** How often an instance checks whether another rotated the signing keys. */
const KEY_CHECK_MS = 15_000;
/** How often expired records (codes, tokens, interactions, sessions) are deleted, and how many at a time. */
const SWEEP_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

/**
 * The portal's OpenID provider (docs/oidc-provider.md): oidc-provider, an OpenID Certified library, configured with
 * the product's storage, keys, accounts and sign-in (library/provider-configuration.ts), its sessions tied to the
 * portal's (OidcPortalBridge), and mounted in the same Express application under /oidc/. Its signing keys are fixed
 * when it is built, so a rotation (here or on another instance) builds it again.
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
    private readonly bridge: OidcPortalBridge,
    @Inject(ThrottlerStorage) private readonly throttler: ThrottlerStorage,
    private readonly interactions: OidcInteractions,
    @Inject(EventEmitter2) private readonly events: EventEmitter2,
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

  /** Builds the provider again with the signing keys as they are in the database now. */
  async build(): Promise<void> {
    const jwks = await this.keys.signingKeys();
    this.keysVersion = await this.keys.version();
    const provider = new Provider(
      this.config.publicUrl,
      providerConfiguration({
        config: this.config,
        db: this.db,
        jwks,
        cookieKeys: this.keys.cookieKeys(),
        loginCheck: this.bridge.loginCheck(),
      }),
    );
    // Koa's own reading of X-Forwarded-* (the scheme behind a TLS-ending proxy); the client address is never Koa's
    // (its left-most X-Forwarded-For entry) but Express's `req.ip`, from the portal's one rule.
    provider.proxy = 'hops' in this.config.trustProxy ? this.config.trustProxy.hops > 0 : true;
    provider.use((ctx, next) => this.bridge.around(ctx, next));
    provider.on(
      'backchannel.error',
      (_ctx: unknown, err: unknown, client: unknown, accountId: unknown, sid: unknown) => {
        const clientId = (client as ClientLike | undefined)?.clientId;
        if (typeof clientId === 'string' && typeof accountId === 'string' && typeof sid === 'string')
          publish(this.events, OIDC_BACKCHANNEL_FAILED, { clientId, sub: accountId, sid, error: err });
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
}
