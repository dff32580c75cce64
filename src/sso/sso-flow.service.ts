import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectRepository } from '@nestjs/typeorm';
import { Request, Response } from 'express';
import { Repository } from 'typeorm';
import { setRefreshCookie } from '../common/http/refresh-cookie';
import { SsoService, SsoTransaction } from '../auth/sso/sso.service';
import { SsoStepUp, StepUpService } from '../auth/step-up/step-up.service';
import { AppException } from '../common/app.exception';
import { requestContextOf } from '../common/request-context';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { ERROR_CODES } from '../shared/messages';
import { SSO_MESSAGES, SsoDiscoveryResult, SsoProtocol } from '../shared/sso';
import { SsoConnection } from './entities/sso-connection.entity';
import { FederatedIdentity, FederatedSignInService } from './federated-sign-in.service';
import { SsoConnectionTestService, SsoTestEnd, SsoTestTicket } from './sso-connection-test.service';
import { OidcConnector, OidcTransaction } from './oidc-connector';
import { SamlConnector } from './saml-connector';
import { OneTimeValues } from './one-time-values';
import { ssoUrls } from './sso-urls';
import { VerifiedDomainsService } from '../domains/verified-domains.service';

export const TRANSACTION_COOKIE = 'ssoTransaction';
const TRANSACTION_SECONDS = 10 * 60;
const SAML_CLOCK_SKEW_MS = 60_000;

/** `stepUp`: the round trip re-authenticates a signed-in session at the deployment-wide provider (CONTRACT 7). */
type Transaction = SsoTransaction & { connectionId?: number; stepUp?: SsoStepUp; test?: SsoTestTicket };
type ClientOf = { ip: string | null; userAgent: string | null };

/** The browser's side of a corporate sign-in: where it goes, and where it ends (`/` signed in, `/logIn?ssoError=`). */
@Injectable()
export class SsoFlowService {
  constructor(
    @InjectRepository(SsoConnection) private readonly connections: Repository<SsoConnection>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jwt: JwtService,
    private readonly deploymentWide: SsoService,
    private readonly oidc: OidcConnector,
    private readonly saml: SamlConnector,
    private readonly federated: FederatedSignInService,
    private readonly domains: VerifiedDomainsService,
    private readonly stepUps: StepUpService,
    private readonly once: OneTimeValues,
    private readonly tests: SsoConnectionTestService,
  ) {}

  private get secure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }

  private failed(res: Response, e: unknown): void {
    const message = e instanceof AppException ? (e.getResponse() as { message: string }).message : SSO_MESSAGES.FAILED;
    res.redirect(302, `/logIn?ssoError=${encodeURIComponent(message)}`);
  }

  private signedIn(res: Response, refreshToken: string): void {
    setRefreshCookie(res, refreshToken, this.secure);
    // The client finds no access token, refreshes with the cookie just set, and is signed in.
    res.redirect(302, '/');
  }

  /** An enabled connection of this protocol, or the refusal the sign-in page shows. */
  private async usable(id: number, protocol?: SsoProtocol): Promise<SsoConnection> {
    const c = await this.connections.findOneBy({ id });
    if (!c || (protocol && c.protocol !== protocol)) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    if (!c.enabled) throw AppException.forbidden(SSO_MESSAGES.DISABLED, ERROR_CODES.SSO_NOT_ALLOWED);
    return c;
  }

  /** A connection of this protocol, enabled or not: an administrator tests one before enabling it. */
  private async existing(id: number, protocol?: SsoProtocol): Promise<SsoConnection> {
    const c = await this.connections.findOneBy(protocol ? { id, protocol } : { id });
    if (!c) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    return c;
  }

  /**
   * Looks at the e-mail's domain only, never at accounts, so the answer and the time it takes are the same
   * whether or not an account exists.
   */
  async discover(email: string): Promise<SsoDiscoveryResult> {
    const organisationId = await this.domains.organisationForEmail(email);
    if (organisationId === null) return { sso: false };
    const c = await this.connections.findOne({ where: { organisationId, enabled: true }, order: { id: 'ASC' } });
    if (!c) return { sso: false };
    return { sso: true, url: `/auth/sso/${c.id}?login_hint=${encodeURIComponent(email.trim())}`, name: c.name };
  }

  /**
   * `prompt=login`: a fresh authentication at the provider (OIDC prompt=login and max_age=0, SAML ForceAuthn). With
   * the `stepUp` ticket of POST /auth/step-up/sso, the round trip re-authenticates the signed-in session the ticket
   * names (CONTRACT 7): its end marks that session instead of opening one. With the `test` ticket of
   * POST /api/sso-connections/{id}/test, it is an administrator's test: its end shows what the provider sent.
   */
  async start(
    id: number,
    res: Response,
    {
      loginHint,
      prompt,
      stepUpTicket,
      testTicket,
    }: { loginHint?: string; prompt?: string; stepUpTicket?: string; testTicket?: string } = {},
  ): Promise<void> {
    try {
      const stepUp = stepUpTicket === undefined ? undefined : this.stepUps.readSsoTicket(stepUpTicket);
      if (stepUpTicket !== undefined && (!stepUp || testTicket !== undefined))
        throw AppException.badRequest(SSO_MESSAGES.STEP_UP_EXPIRED, ERROR_CODES.SSO_FAILED);
      const test = testTicket === undefined ? undefined : this.tests.readTicket(testTicket, id);
      const reauthenticate = prompt === 'login' || !!stepUp || !!test;
      const c = test ? await this.existing(id) : await this.usable(id);
      if (c.protocol === 'saml') {
        // RelayState carries 80 bytes at most: a random key of the step-up or test kept where every instance finds it.
        const relayState = stepUp ? await this.keepSamlStepUp(stepUp) : test ? await this.keepSamlTest(test) : '';
        res.redirect(302, await this.saml.start(c, loginHint, { forceAuthn: reauthenticate, relayState }));
        return;
      }
      const { url, transaction } = await this.oidc.start(c, loginHint, reauthenticate);
      // Lax, not Strict: the cookie must come back on the identity provider's top-level redirect.
      res.cookie(
        TRANSACTION_COOKIE,
        this.jwt.sign(
          { typ: 'sso', ...transaction, ...(stepUp ? { stepUp } : {}), ...(test ? { test } : {}) },
          { expiresIn: TRANSACTION_SECONDS },
        ),
        {
          httpOnly: true,
          sameSite: 'lax',
          secure: this.secure,
          path: '/callback',
          maxAge: TRANSACTION_SECONDS * 1000,
        },
      );
      res.redirect(302, url);
    } catch (e) {
      this.failed(res, e);
    }
  }

  private transaction(req: Request): Transaction | undefined {
    const raw = (req as Request & { cookies?: Record<string, string> }).cookies?.[TRANSACTION_COOKIE];
    try {
      const p = raw ? this.jwt.verify<Transaction & { typ: string }>(raw) : undefined;
      if (p?.typ !== 'sso') return undefined;
      return {
        state: p.state,
        nonce: p.nonce,
        codeVerifier: p.codeVerifier,
        ...(typeof p.connectionId === 'number' ? { connectionId: p.connectionId } : {}),
        ...(p.stepUp ? { stepUp: p.stepUp } : {}),
        ...(p.test ? { test: p.test } : {}),
      };
    } catch {
      return undefined;
    }
  }

  /** GET /callback: the end of an OIDC round trip, of a connection or of the deployment-wide provider. */
  async oidcCallback(req: Request, res: Response): Promise<void> {
    const transaction = this.transaction(req);
    res.clearCookie(TRANSACTION_COOKIE, { path: '/callback', sameSite: 'lax', secure: this.secure, httpOnly: true });
    const client = requestContextOf(req);
    const currentUrl = new URL(req.originalUrl, ssoUrls(this.config.publicUrl, 0).oidcRedirect);
    if (transaction?.stepUp) {
      await this.stepUpCallback(currentUrl, transaction, transaction.stepUp, client, res);
      return;
    }
    if (transaction?.test && transaction.connectionId !== undefined) {
      await this.testEnd(transaction.connectionId, 'oidc', transaction.test, client, res, (c) =>
        this.oidc.finish(c, currentUrl, transaction as OidcTransaction),
      );
      return;
    }
    try {
      if (transaction?.connectionId === undefined) {
        const { refreshToken } = await this.deploymentWide.finish(currentUrl, transaction, client);
        this.signedIn(res, refreshToken);
        return;
      }
      const c = await this.usable(transaction.connectionId, 'oidc');
      const identity = await this.oidc.finish(c, currentUrl, transaction as OidcTransaction);
      const { refreshToken } = await this.federated.signIn(
        c,
        { ...identity, providerSessionId: identity.sid ?? null },
        client,
      );
      this.signedIn(res, refreshToken);
    } catch (e) {
      this.failed(res, e);
    }
  }

  private async keepSamlStepUp(stepUp: SsoStepUp): Promise<string> {
    const key = randomBytes(16).toString('base64url');
    const until = new Date(Date.now() + TRANSACTION_SECONDS * 1000);
    const returnTo = stepUp.returnTo.length <= 100 ? stepUp.returnTo : '/';
    await this.once.claim(`saml-step-up:${key}`, until, `${stepUp.sid} ${stepUp.sub} ${Date.now()}`);
    await this.once.claim(`saml-step-up-return:${key}`, until, returnTo);
    return key;
  }

  /** The step-up a SAML answer's RelayState names, once: its session, account, return path and start time. */
  private async takeSamlStepUp(relayState: string): Promise<(SsoStepUp & { startedAt: number }) | undefined> {
    const value = await this.once.get(`saml-step-up:${relayState}`);
    const returnTo = await this.once.get(`saml-step-up-return:${relayState}`);
    if (!value || !(await this.once.take(`saml-step-up:${relayState}`))) return undefined;
    const [sid, sub, startedAt] = value.split(' ');
    return { sid, sub: Number(sub), returnTo: returnTo ?? '/', startedAt: Number(startedAt) };
  }

  private async keepSamlTest(test: SsoTestTicket): Promise<string> {
    const key = randomBytes(16).toString('base64url');
    await this.once.claim(
      `saml-test:${key}`,
      new Date(Date.now() + TRANSACTION_SECONDS * 1000),
      `${test.sub} ${test.returnTo}`,
    );
    return key;
  }

  /** The test a SAML answer's RelayState names, once. */
  private async takeSamlTest(relayState: string): Promise<SsoTestTicket | undefined> {
    const value = await this.once.get(`saml-test:${relayState}`);
    if (!value || !(await this.once.take(`saml-test:${relayState}`))) return undefined;
    const [sub, returnTo] = value.split(' ');
    return { sub: Number(sub), returnTo };
  }

  /** The end of a test round trip: back on the Single Sign-On page with its result, whatever the provider said. */
  private async testEnd(
    id: number,
    protocol: SsoProtocol,
    ticket: SsoTestTicket,
    client: ClientOf,
    res: Response,
    prove: (c: SsoConnection) => Promise<FederatedIdentity & { claims: Record<string, unknown> }>,
  ): Promise<void> {
    try {
      const c = await this.existing(id, protocol);
      let end: SsoTestEnd;
      try {
        end = { identity: await prove(c) };
      } catch (e) {
        end = { error: e };
      }
      res.redirect(302, await this.tests.record(c, ticket, end, client));
    } catch (e) {
      this.failed(res, e);
    }
  }

  /** The account linked to this subject of the connection must be the one whose session asked to step up. */
  private async markStepUp(
    c: SsoConnection,
    subject: string,
    stepUp: SsoStepUp,
    client: { ip: string | null; userAgent: string | null },
  ): Promise<void> {
    const user = await this.federated.linkedAccount(c, subject);
    if (!user || user.id !== stepUp.sub)
      throw AppException.forbidden(SSO_MESSAGES.STEP_UP_OTHER_ACCOUNT, ERROR_CODES.SSO_NOT_ALLOWED);
    await this.stepUps.mark(stepUp.sid, user, client, c.name);
  }

  /** The end of a step-up at the provider: back where the person was, the session marked, or the reason shown. */
  private async stepUpCallback(
    currentUrl: URL,
    transaction: Transaction,
    stepUp: SsoStepUp,
    client: { ip: string | null; userAgent: string | null },
    res: Response,
  ): Promise<void> {
    await this.backFromStepUp(stepUp, res, async () => {
      if (transaction.connectionId === undefined) {
        await this.deploymentWide.finishStepUp(currentUrl, transaction, stepUp, client);
        return;
      }
      const c = await this.usable(transaction.connectionId, 'oidc');
      const identity = await this.oidc.finish(c, currentUrl, transaction as OidcTransaction, 0);
      await this.markStepUp(c, identity.subject, stepUp, client);
    });
  }

  private async backFromStepUp(stepUp: SsoStepUp, res: Response, prove: () => Promise<void>): Promise<void> {
    const back = new URL(stepUp.returnTo, this.config.publicUrl);
    try {
      await prove();
      back.searchParams.set('stepUp', 'done');
    } catch (e) {
      const message =
        e instanceof AppException ? (e.getResponse() as { message: string }).message : SSO_MESSAGES.FAILED;
      back.searchParams.set('stepUpError', message);
    }
    res.redirect(302, `${back.pathname}${back.search}${back.hash}`);
  }

  async samlAcs(
    id: number,
    samlResponse: string,
    client: { ip: string | null; userAgent: string | null },
    res: Response,
    relayState?: string,
  ) {
    const stepUp = relayState ? await this.takeSamlStepUp(relayState) : undefined;
    if (stepUp) {
      await this.backFromStepUp(stepUp, res, async () => {
        const c = await this.usable(id, 'saml');
        const identity = await this.saml.acs(c, samlResponse);
        // ForceAuthn was asked: the IdP must have authenticated the person after the step-up began.
        if (!identity.authnInstant || identity.authnInstant.getTime() < stepUp.startedAt - SAML_CLOCK_SKEW_MS)
          throw AppException.unauthorized(SSO_MESSAGES.STEP_UP_NOT_FRESH, ERROR_CODES.SSO_FAILED);
        await this.markStepUp(c, identity.subject, stepUp, client);
      });
      return;
    }
    const test = relayState ? await this.takeSamlTest(relayState) : undefined;
    if (test) {
      await this.testEnd(id, 'saml', test, client, res, async (c) => {
        const identity = await this.saml.acs(c, samlResponse);
        return { ...identity, providerSessionId: identity.sessionIndex };
      });
      return;
    }
    try {
      const c = await this.usable(id, 'saml');
      const identity = await this.saml.acs(c, samlResponse);
      const { refreshToken } = await this.federated.signIn(
        c,
        { ...identity, providerSessionId: identity.sessionIndex },
        client,
      );
      this.signedIn(res, refreshToken);
    } catch (e) {
      this.failed(res, e);
    }
  }

  async samlMetadata(id: number): Promise<string> {
    const c = await this.connections.findOneBy({ id, protocol: 'saml' });
    if (!c) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    return this.saml.metadata(c);
  }
}
