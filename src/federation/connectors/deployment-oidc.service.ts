import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import * as oidc from 'openid-client';
import { Repository } from 'typeorm';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';
import { AppException } from '../../common/app.exception';
import { ClientInfo } from '../../common/request-context';
import { Organisation } from '../../database/entities/organisation.entity';
import { User } from '../../database/entities/user.entity';
import { AuthService, SignedIn } from '../../auth/auth.service';
import { ERROR_CODES } from '../../shared/messages';
import { SsoStepUp, StepUpService } from '../../step-up/step-up.service';
import { assertMaySignIn } from '../../auth/sign-in/may-sign-in';
import { createSafeFetch } from '../../common/http/safe-fetch';
import { verifyIdTokenSignatures } from '../../common/http/provider-signatures';

const REQUEST_TIMEOUT_SECONDS = 5;

/** What must survive the round trip to the identity provider: kept in a signed, short-lived cookie. */
export interface SsoTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * Corporate single sign-on (docs/product-rules.md §3): OpenID Connect code flow with PKCE, scopes 'openid email',
 * against OIDC_ISSUER. An identity signs in only as an existing, enabled account that is marked for
 * SSO in an organisation with SSO enabled: the provider proves the e-mail, the product decides access.
 */
@Injectable()
export class SsoService {
  private readonly logger = new Logger('SSO');
  private configuration?: Promise<oidc.Configuration>;
  /**
   * The provider is the operator's own (OIDC_ISSUER), on any network; its answers still come within the deadline
   * and the size cap of the safe outbound fetch (docs/decisions/safe-outbound-fetch.md).
   */
  private readonly fetch = createSafeFetch({ allowPrivateNetworks: true, timeoutMs: REQUEST_TIMEOUT_SECONDS * 1000 });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly auth: AuthService,
    private readonly stepUps: StepUpService,
  ) {}

  get enabled(): boolean {
    return !!this.config.oidc;
  }

  get redirectUri(): string {
    return `${this.config.publicUrl}/callback`;
  }

  /** Discovered once, on first use; a failed discovery is retried on the next sign-in. */
  private client(): Promise<oidc.Configuration> {
    const settings = this.config.oidc;
    if (!settings) throw AppException.notFound('Corporate login is not configured.');
    this.configuration ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        timeout: REQUEST_TIMEOUT_SECONDS,
        [oidc.customFetch]: this.fetch,
        ...(settings.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .then((conf) => {
        conf.timeout = REQUEST_TIMEOUT_SECONDS;
        conf[oidc.customFetch] = this.fetch;
        verifyIdTokenSignatures(conf);
        return conf;
      })
      .catch((e: Error) => {
        this.configuration = undefined;
        this.logger.error(`Discovery of ${settings.issuer} failed: ${e.message}`);
        throw new AppException(
          502,
          ERROR_CODES.SSO_UNAVAILABLE,
          'The corporate identity provider cannot be reached. Please try again later.',
        );
      });
    return this.configuration;
  }

  async start({ reauthenticate = false } = {}): Promise<{ url: string; transaction: SsoTransaction }> {
    const client = await this.client();
    const transaction = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: this.redirectUri,
      scope: 'openid email',
      response_type: 'code',
      state: transaction.state,
      nonce: transaction.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
      code_challenge_method: 'S256',
      // A fresh authentication at the provider, whatever session the person has there (OIDC Core 3.1.2.1).
      ...(reauthenticate ? { prompt: 'login', max_age: '0' } : {}),
    });
    return { url: url.href, transaction };
  }

  async finish(callbackUrl: URL, transaction: SsoTransaction | undefined, client: ClientInfo): Promise<SignedIn> {
    const email = await this.provenEmail(callbackUrl, transaction);
    const user = await this.ssoAccount(email);
    return this.auth.signIn(user, client, 'sso');
  }

  /**
   * The end of a re-authentication at the provider (docs/product-rules.md §7): the provider must have authenticated the person just
   * now (auth_time within the clock tolerance of max_age=0) as the e-mail of the account whose session the ticket
   * names; then that session is marked. Nothing else changes: no new session, no cookie.
   */
  async finishStepUp(
    callbackUrl: URL,
    transaction: SsoTransaction | undefined,
    stepUp: SsoStepUp,
    client: ClientInfo,
  ): Promise<void> {
    const email = await this.provenEmail(callbackUrl, transaction, 0);
    const user = await this.ssoAccount(email);
    if (user.id !== stepUp.sub)
      throw AppException.forbidden(
        'The corporate login was for another account. Please confirm with your own.',
        ERROR_CODES.SSO_NOT_ALLOWED,
      );
    await this.stepUps.mark(stepUp.sid, user, client, 'the corporate identity provider');
  }

  /** An enabled SSO account of an SSO organisation with this e-mail, or the refusal. */
  private async ssoAccount(email: string | undefined): Promise<User> {
    const refused = () =>
      AppException.forbidden(
        'Your account is not enabled for corporate login. Please contact your administrator.',
        ERROR_CODES.SSO_NOT_ALLOWED,
      );
    if (!email) throw refused();
    const user = await this.users.findOneBy({ email });
    if (!user || !user.isSSO) throw refused();
    const org = await this.organisations.findOneBy({ id: user.organisationId });
    if (!org?.isSSOEnabled) throw refused();
    assertMaySignIn(user);
    return user;
  }

  /** The e-mail the provider proves in the code exchange; `maxAge` demands a recent authentication (auth_time). */
  private async provenEmail(
    callbackUrl: URL,
    transaction: SsoTransaction | undefined,
    maxAge?: number,
  ): Promise<string | undefined> {
    if (!transaction)
      throw AppException.badRequest(
        'The corporate login took too long or was started elsewhere. Please try again.',
        ERROR_CODES.SSO_STATE_MISSING,
      );
    let email: string | undefined;
    try {
      const client = await this.client();
      const tokens = await oidc.authorizationCodeGrant(client, callbackUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
        ...(maxAge !== undefined ? { maxAge } : {}),
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      // Conforming providers put scope claims (email) in userinfo rather than in the ID token.
      const claims =
        typeof idClaims.email === 'string'
          ? idClaims
          : await oidc.fetchUserInfo(client, tokens.access_token, idClaims.sub);
      if (claims.email_verified === false)
        throw new Error('the e-mail address is not verified by the identity provider');
      email = typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined;
    } catch (e) {
      if (e instanceof AppException) throw e;
      this.logger.warn(`Corporate login failed: ${(e as Error).message}`);
      throw AppException.unauthorized('The corporate login did not succeed. Please try again.', ERROR_CODES.SSO_FAILED);
    }
    return email;
  }
}
