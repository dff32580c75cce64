import { Inject, Injectable, Logger } from '@nestjs/common';
import { createRemoteJWKSet, customFetch, FetchImplementation, jwtVerify, JWTVerifyGetKey } from 'jose';
import * as oidc from 'openid-client';
import { AppException } from '../../../platform/web/app.exception';
import { decrypt } from '../../../platform/crypto/secrets';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { createSafeFetch, SafeFetch } from '../../../platform/web/http/safe-fetch';
import { PROVIDER_SIGNING_ALGORITHMS, verifyIdTokenSignatures } from './provider-signatures';
import { ERROR_CODES } from '../../../shared/messages';
import { SsoConnection } from '../entities/sso-connection.entity';
import { oidcRedirectUri, ssoUrls } from '../round-trip/sso-urls';
import { ProviderRefusal } from './provider-refusal';

/**
 * The deployment-wide provider of OIDC_* (docs/product-rules.md §3, §6): one more source of an OIDC connection, for
 * organisations without one of their own.
 */
export const DEPLOYMENT_WIDE = 'deployment-wide';

/** Where an OIDC round trip goes: an organisation's connection, or the deployment-wide provider. */
export type OidcSource = SsoConnection | typeof DEPLOYMENT_WIDE;

/** What must survive the round trip to the provider: kept in a signed, short-lived cookie. */
export interface OidcTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The connection; absent: the deployment-wide provider. */
  connectionId?: number;
}

/** What the provider said about the person, after every check of the ID token. */
export interface OidcIdentity {
  subject: string;
  email?: string;
  emailVerified?: boolean;
  firstName?: string;
  lastName?: string;
  /** The provider's session id (`sid`), named again by back-channel logout. */
  sid?: string;
  idToken?: string;
  /** Every claim of the ID token and userinfo, for a connection test to show. */
  claims: Record<string, unknown>;
}

/** A logout token's subject and session, after its checks (OpenID Back-Channel Logout 1.0 §2.6). */
export interface LogoutClaims {
  jti: string;
  sub?: string;
  sid?: string;
  exp: number;
}

const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Discovery documents and keys are read again after this long, so a provider's key rotation is followed. */
const CACHE_MS = 10 * 60_000;
/** A token signed by a key the cached set lacks reads the provider's keys again, at most this often. */
const KEYS_REFETCH_COOLDOWN_MS = 30_000;
const REQUEST_TIMEOUT_SECONDS = 5;

interface Cached<T> {
  key: string;
  at: number;
  value: Promise<T>;
}

/** How the connector reaches a source's provider. */
interface SourceSettings {
  /** The cache's entry, and what changes it (a connection's change discovers again). */
  entry: string;
  key: string;
  issuer: string;
  clientId: string;
  /** openid-client's client metadata and authentication for the token endpoint. */
  metadata: string | undefined;
  authentication: oidc.ClientAuth | undefined;
  fetch: SafeFetch;
  insecure: boolean;
  scope: string;
  /** Names the source in the log. */
  label: string;
}

/**
 * OpenID Connect through openid-client, for an organisation's connection or the deployment-wide provider alike:
 * discovery from the issuer, code flow with PKCE and a nonce, the ID token checked (issuer, audience, expiry, nonce, and its signature against the provider's JWKS,
 * fetched through the safe outbound fetch) by the library.
 */
@Injectable()
export class OidcConnector {
  private readonly logger = new Logger('OIDC');
  private readonly configs = new Map<string, Cached<oidc.Configuration>>();
  private readonly keys = new Map<number, { uri: string; set: JWTVerifyGetKey }>();

  /** Every request to a customer's provider (discovery, tokens, userinfo, keys): public addresses only, bounded. */
  private readonly fetch: SafeFetch;
  /**
   * The deployment-wide provider is the operator's own (OIDC_ISSUER), on any network; its answers still come within
   * the deadline and the size cap of the safe outbound fetch (docs/decisions/safe-outbound-fetch.md).
   */
  private readonly operatorFetch = createSafeFetch({
    allowPrivateNetworks: true,
    timeoutMs: REQUEST_TIMEOUT_SECONDS * 1000,
  });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.fetch = createSafeFetch({
      allowPrivateNetworks: config.ssoAllowPrivateNetworks,
      timeoutMs: REQUEST_TIMEOUT_SECONDS * 1000,
    });
  }

  private settings(source: OidcSource): SourceSettings {
    if (source === DEPLOYMENT_WIDE) {
      const oidcConfig = this.config.oidc;
      if (!oidcConfig) throw AppException.notFound('Corporate login is not configured.');
      return {
        entry: DEPLOYMENT_WIDE,
        key: `${oidcConfig.issuer}|${oidcConfig.clientId}`,
        issuer: oidcConfig.issuer,
        clientId: oidcConfig.clientId,
        // Given as the client's secret, openid-client sends it in the token request's body (client_secret_post).
        metadata: oidcConfig.clientSecret,
        authentication: undefined,
        fetch: this.operatorFetch,
        insecure: oidcConfig.issuer.startsWith('http:'),
        // The spec's corporate login asks for these two scopes (docs/product-rules.md §3).
        scope: 'openid email',
        label: 'the deployment-wide provider',
      };
    }
    return {
      entry: String(source.id),
      key: `${source.oidcIssuer}|${source.oidcClientId}|${new Date(source.updatedAt).getTime()}`,
      issuer: source.oidcIssuer!,
      clientId: source.oidcClientId!,
      metadata: undefined,
      authentication: oidc.ClientSecretBasic(decrypt(source.oidcClientSecret!, this.config.encryptionKey)),
      fetch: this.fetch,
      insecure: this.config.ssoAllowPrivateNetworks && source.oidcIssuer!.startsWith('http:'),
      scope: 'openid email profile',
      label: `connection ${source.id}`,
    };
  }

  private unreachable() {
    return new AppException(
      502,
      ERROR_CODES.SSO_UNAVAILABLE,
      'The corporate identity provider cannot be reached. Please try again later.',
    );
  }

  /**
   * The source's discovered configuration, read again after CACHE_MS; a change of a connection (updatedAt) discovers
   * again, and a failed discovery is tried again on the next use.
   */
  configuration(source: OidcSource): Promise<oidc.Configuration> {
    const s = this.settings(source);
    const cached = this.configs.get(s.entry);
    if (cached && cached.key === s.key && Date.now() - cached.at < CACHE_MS) return cached.value;
    const value = oidc
      .discovery(new URL(s.issuer), s.clientId, s.metadata, s.authentication, {
        timeout: REQUEST_TIMEOUT_SECONDS,
        [oidc.customFetch]: s.fetch,
        ...(s.insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .then((conf) => {
        conf.timeout = REQUEST_TIMEOUT_SECONDS;
        conf[oidc.customFetch] = s.fetch;
        verifyIdTokenSignatures(conf);
        return conf;
      })
      .catch((e: Error) => {
        this.configs.delete(s.entry);
        this.logger.warn(`Discovery of ${s.label} (${s.issuer}) failed: ${e.message}`);
        throw this.unreachable();
      });
    this.configs.set(s.entry, { key: s.key, at: Date.now(), value });
    return value;
  }

  /** `reauthenticate`: a fresh authentication at the provider whatever session it holds (prompt=login, max_age=0). */
  async start(
    source: OidcSource,
    loginHint?: string,
    reauthenticate = false,
  ): Promise<{ url: string; transaction: OidcTransaction }> {
    const conf = await this.configuration(source);
    const transaction: OidcTransaction = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      ...(source === DEPLOYMENT_WIDE ? {} : { connectionId: source.id }),
    };
    const url = oidc.buildAuthorizationUrl(conf, {
      redirect_uri: oidcRedirectUri(this.config.publicUrl),
      scope: this.settings(source).scope,
      response_type: 'code',
      state: transaction.state,
      nonce: transaction.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
      code_challenge_method: 'S256',
      ...(loginHint ? { login_hint: loginHint } : {}),
      ...(reauthenticate ? { prompt: 'login', max_age: '0' } : {}),
    });
    return { url: url.href, transaction };
  }

  /** `maxAge`: seconds since the provider last authenticated the person (auth_time), checked with its clock skew. */
  async finish(
    source: OidcSource,
    callbackUrl: URL,
    transaction: OidcTransaction,
    maxAge?: number,
  ): Promise<OidcIdentity> {
    const conf = await this.configuration(source);
    try {
      const tokens = await oidc.authorizationCodeGrant(conf, callbackUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
        ...(maxAge !== undefined ? { maxAge } : {}),
      });
      const id = tokens.claims();
      if (!id) throw new Error('no ID token');
      // Conforming providers put the scope claims in userinfo rather than in the ID token.
      const claims =
        typeof id.email === 'string' ? id : { ...(await oidc.fetchUserInfo(conf, tokens.access_token, id.sub)), ...id };
      const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
      return {
        subject: id.sub,
        email: text(claims.email)?.toLowerCase(),
        emailVerified: claims.email_verified === undefined ? undefined : claims.email_verified === true,
        firstName: text(claims.given_name),
        lastName: text(claims.family_name),
        sid: text(id.sid),
        idToken: tokens.id_token,
        claims: { ...claims },
      };
    } catch (e) {
      this.logger.warn(`Corporate login through ${this.settings(source).label} failed: ${(e as Error).message}`);
      throw new ProviderRefusal((e as Error).message);
    }
  }

  /** The provider's end-session URL for this ID token, or null when it offers none. */
  async endSessionUrl(c: SsoConnection, idToken: string | null): Promise<string | null> {
    let conf: oidc.Configuration;
    try {
      conf = await this.configuration(c);
    } catch {
      return null;
    }
    if (!conf.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(conf, {
      ...(idToken ? { id_token_hint: idToken } : { client_id: c.oidcClientId! }),
      post_logout_redirect_uri: ssoUrls(this.config.publicUrl, c.id).afterLogout,
    }).href;
  }

  /**
   * The provider's keys (its jwks_uri, through the safe outbound fetch): cached for CACHE_MS; a token whose key the
   * cached set lacks (a rotation) reads them again, at most once per KEYS_REFETCH_COOLDOWN_MS.
   */
  private jwks(c: SsoConnection, conf: oidc.Configuration): JWTVerifyGetKey {
    const uri = conf.serverMetadata().jwks_uri;
    if (!uri) throw new Error('the provider publishes no jwks_uri');
    const cached = this.keys.get(c.id);
    if (cached?.uri === uri) return cached.set;
    const set = createRemoteJWKSet(new URL(uri), {
      cacheMaxAge: CACHE_MS,
      cooldownDuration: KEYS_REFETCH_COOLDOWN_MS,
      timeoutDuration: REQUEST_TIMEOUT_SECONDS * 1000,
      [customFetch]: this.fetch as FetchImplementation,
    });
    this.keys.set(c.id, { uri, set });
    return set;
  }

  /**
   * Checks a back-channel logout token (OpenID Back-Channel Logout 1.0 §2.6): signed by the provider's keys
   * with an asymmetric algorithm, its issuer, this client as audience, fresh, the logout event, a sub or sid,
   * no nonce. Null for anything else.
   */
  async verifyLogoutToken(c: SsoConnection, token: string): Promise<LogoutClaims | null> {
    try {
      const conf = await this.configuration(c);
      const verified = await jwtVerify(token, this.jwks(c, conf), {
        issuer: conf.serverMetadata().issuer,
        audience: c.oidcClientId!,
        algorithms: PROVIDER_SIGNING_ALGORITHMS,
        maxTokenAge: '5 minutes',
        clockTolerance: 60,
        requiredClaims: ['iat', 'jti'],
      });
      const p = verified.payload;
      const events = p.events as Record<string, unknown> | undefined;
      if (!events || typeof events !== 'object' || typeof events[BACKCHANNEL_EVENT] !== 'object') return null;
      if (p.nonce !== undefined) return null;
      const sub = typeof p.sub === 'string' ? p.sub : undefined;
      const sid = typeof p.sid === 'string' ? p.sid : undefined;
      if (!sub && !sid) return null;
      const exp = typeof p.exp === 'number' ? p.exp : Math.floor(Date.now() / 1000) + 300;
      return { jti: String(p.jti), sub, sid, exp };
    } catch (e) {
      this.logger.warn(`A logout token for connection ${c.id} was refused: ${(e as Error).message}`);
      return null;
    }
  }
}
