import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Request, Response } from 'express';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { OidcTransaction } from '../connectors/oidc-connector';
import { OneTimeValues } from './one-time-values';

export const TRANSACTION_COOKIE = 'ssoTransaction';
export const TRANSACTION_SECONDS = 10 * 60;
/** The most a one-time value holds (its column's length). */
const VALUE_CHARS = 100;

/**
 * What a round trip carries besides the protocol's own state: a purpose other than signing in (RoundTripPurpose's
 * name) and its ticket; or, for a sign-in, where the browser goes once signed in (a path of the OpenID provider's
 * sign-in, see signInReturnPath).
 */
export interface Carried {
  purpose?: string;
  ticket?: unknown;
  returnTo?: string;
}

/**
 * An OIDC round trip's state (PKCE verifier, state, nonce, the connection or none for the deployment-wide provider)
 * and what it carries.
 */
export type Transaction = OidcTransaction & Carried;

/** What a SAML answer's RelayState carried, and when its round trip began. */
export type SamlPurpose = Carried & { startedAt: number };
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
      ...(typeof p.purpose === 'string' ? { purpose: p.purpose, ticket: p.ticket } : {}),
      ...(typeof p.returnTo === 'string' ? { returnTo: p.returnTo } : {}),
    };
  }

  /**
   * Keeps what a SAML round trip carries; its RelayState key. It is written in pieces of VALUE_CHARS one-time values,
   * under the key, its count and the start time.
   */
  async keepSaml({ purpose, ticket, returnTo }: Carried): Promise<string> {
    const key = randomBytes(16).toString('base64url');
    const until = new Date(Date.now() + TRANSACTION_SECONDS * 1000);
    // Cut by characters, as the column counts them, never inside one.
    const chars = Array.from(JSON.stringify({ purpose, ticket, returnTo }));
    const pieces = Math.ceil(chars.length / VALUE_CHARS);
    for (let i = 0; i < pieces; i += 1)
      await this.once.claim(
        `saml-purpose:${key}:${i}`,
        until,
        chars.slice(i * VALUE_CHARS, (i + 1) * VALUE_CHARS).join(''),
      );
    await this.once.claim(`saml-purpose:${key}`, until, `${pieces} ${Date.now()}`);
    return key;
  }

  /** What a SAML answer's RelayState carried, once, and when its round trip began. */
  async takeSaml(relayState: string): Promise<SamlPurpose | undefined> {
    const head = await this.once.get(`saml-purpose:${relayState}`);
    if (!head || !(await this.once.take(`saml-purpose:${relayState}`))) return undefined;
    const [pieces, startedAt] = head.split(' ').map(Number);
    let text = '';
    for (let i = 0; i < pieces; i += 1) {
      const key = `saml-purpose:${relayState}:${i}`;
      text += (await this.once.get(key)) ?? '';
      await this.once.take(key);
    }
    try {
      const { purpose, ticket, returnTo } = JSON.parse(text) as Carried;
      return {
        ...(typeof purpose === 'string' ? { purpose, ticket } : {}),
        ...(typeof returnTo === 'string' ? { returnTo } : {}),
        startedAt,
      };
    } catch {
      // A piece already swept: the round trip is over.
      return undefined;
    }
  }
}
