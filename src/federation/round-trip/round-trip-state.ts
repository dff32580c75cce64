import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Request, Response } from 'express';
import { SsoTransaction } from '../connectors/deployment-oidc.service';
import { SsoStepUp } from '../../step-up/step-up.service';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';
import { OneTimeValues } from './one-time-values';
import { SsoTestTicket } from '../connection-test/sso-connection-test.service';

export const TRANSACTION_COOKIE = 'ssoTransaction';
export const TRANSACTION_SECONDS = 10 * 60;

/**
 * An OIDC round trip's state (PKCE verifier, state, nonce) and what it is for: a connection's sign-in, a step-up of a
 * signed-in session (`stepUp`), or an administrator's test (`test`).
 */
export type Transaction = SsoTransaction & { connectionId?: number; stepUp?: SsoStepUp; test?: SsoTestTicket };

/**
 * What crosses the round trip to the identity provider and back. OIDC: a signed, HttpOnly cookie sent only to
 * /callback. SAML: RelayState carries 80 bytes at most, so it is a random key of a one-time value every instance finds.
 */
@Injectable()
export class RoundTripState {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jwt: JwtService,
    private readonly once: OneTimeValues,
  ) {}

  get secure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }

  /** Sets the OIDC transaction cookie. Lax, not Strict: it must come back on the provider's top-level redirect. */
  keepOidc(res: Response, transaction: Transaction): void {
    res.cookie(TRANSACTION_COOKIE, this.jwt.sign({ typ: 'sso', ...transaction }, { expiresIn: TRANSACTION_SECONDS }), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/callback',
      maxAge: TRANSACTION_SECONDS * 1000,
    });
  }

  /**
   * The OIDC transaction the callback's cookie carries, or undefined. It serves once: the cookie is cleared, and its
   * state is claimed in the database, so a kept copy of the cookie cannot complete a second authorization on any
   * instance.
   */
  async takeOidc(req: Request, res: Response): Promise<Transaction | undefined> {
    res.clearCookie(TRANSACTION_COOKIE, { path: '/callback', sameSite: 'lax', secure: this.secure, httpOnly: true });
    const raw = (req as Request & { cookies?: Record<string, string> }).cookies?.[TRANSACTION_COOKIE];
    let p: (Transaction & { typ: string; exp?: number }) | undefined;
    try {
      p = raw ? this.jwt.verify<Transaction & { typ: string; exp?: number }>(raw) : undefined;
    } catch {
      return undefined;
    }
    if (p?.typ !== 'sso' || typeof p.state !== 'string') return undefined;
    const until = new Date(((p.exp ?? 0) + TRANSACTION_SECONDS) * 1000);
    if (!(await this.once.claim(`oidc-transaction:${p.state}`, until))) return undefined;
    return {
      state: p.state,
      nonce: p.nonce,
      codeVerifier: p.codeVerifier,
      ...(typeof p.connectionId === 'number' ? { connectionId: p.connectionId } : {}),
      ...(p.stepUp ? { stepUp: p.stepUp } : {}),
      ...(p.test ? { test: p.test } : {}),
    };
  }

  /** Keeps a step-up for a SAML round trip; its RelayState key. */
  async keepSamlStepUp(stepUp: SsoStepUp): Promise<string> {
    const key = randomBytes(16).toString('base64url');
    const until = new Date(Date.now() + TRANSACTION_SECONDS * 1000);
    const returnTo = stepUp.returnTo.length <= 100 ? stepUp.returnTo : '/';
    await this.once.claim(`saml-step-up:${key}`, until, `${stepUp.sid} ${stepUp.sub} ${Date.now()}`);
    await this.once.claim(`saml-step-up-return:${key}`, until, returnTo);
    return key;
  }

  /** The step-up a SAML answer's RelayState names, once: its session, account, return path and start time. */
  async takeSamlStepUp(relayState: string): Promise<(SsoStepUp & { startedAt: number }) | undefined> {
    const value = await this.once.get(`saml-step-up:${relayState}`);
    const returnTo = await this.once.get(`saml-step-up-return:${relayState}`);
    if (!value || !(await this.once.take(`saml-step-up:${relayState}`))) return undefined;
    const [sid, sub, startedAt] = value.split(' ');
    return { sid, sub: Number(sub), returnTo: returnTo ?? '/', startedAt: Number(startedAt) };
  }

  /** Keeps an administrator's test for a SAML round trip; its RelayState key. */
  async keepSamlTest(test: SsoTestTicket): Promise<string> {
    const key = randomBytes(16).toString('base64url');
    await this.once.claim(
      `saml-test:${key}`,
      new Date(Date.now() + TRANSACTION_SECONDS * 1000),
      `${test.sub} ${test.returnTo}`,
    );
    return key;
  }

  /** The test a SAML answer's RelayState names, once. */
  async takeSamlTest(relayState: string): Promise<SsoTestTicket | undefined> {
    const value = await this.once.get(`saml-test:${relayState}`);
    if (!value || !(await this.once.take(`saml-test:${relayState}`))) return undefined;
    const [sub, returnTo] = value.split(' ');
    return { sub: Number(sub), returnTo };
  }
}
