import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Response } from 'express';
import { AppException } from '../../../platform/web/app.exception';
import { RequestContext } from '../../../platform/web/request-context';
import { User } from '../../../platform/database/entities/user.entity';
import { ERROR_CODES } from '../../../shared/messages';
import { SSO_MESSAGES, SsoProtocol } from '../../../shared/identity/sso';
import { SsoConnection } from '../entities/sso-connection.entity';
import { FederatedIdentity } from '../sign-in/federated-sign-in.service';

/** What the provider said about the person, after every check of its protocol. */
export type ProvenIdentity = FederatedIdentity & { claims: Record<string, unknown> };

/**
 * A round trip as the browser brings it back (GET /callback for OIDC, POST /auth/saml/{id}/acs for SAML), for its
 * purpose's handler to judge. Nothing is checked until the handler asks, so each purpose decides where a refusal
 * goes.
 */
export interface RoundTripEnd {
  readonly protocol: SsoProtocol;
  readonly client: RequestContext;
  readonly res: Response;
  /**
   * The connection the round trip went through: enabled (or, with `disabledToo`, as an administrator tests one
   * before enabling it), else the refusal; null: the deployment-wide provider.
   */
  connection(options?: { disabledToo?: boolean }): Promise<SsoConnection | null>;
  /**
   * The provider's answer, checked by its protocol. `fresh`: the person authenticated at the provider after the
   * round trip began (OIDC max_age=0 with auth_time, SAML AuthnInstant), else the refusal.
   */
  identity(c: SsoConnection | null, options?: { fresh?: boolean }): Promise<ProvenIdentity>;
  /**
   * The existing account the identity is: the one linked to its subject at the connection, or at the deployment-wide
   * provider the SSO account of its e-mail (its refusal when the account may not sign in); null: none.
   */
  account(c: SsoConnection | null, identity: ProvenIdentity): Promise<User | null>;
  /** The provider as the audit trail names it. */
  providerName(c: SsoConnection | null): string;
}

/** How one purpose of a round trip ends. */
export interface RoundTripHandler<Ticket> {
  end(ticket: Ticket, end: RoundTripEnd): Promise<void>;
}

/**
 * A purpose other than signing in, started with a ticket the start's query names (`?stepUp=`, `?test=`), carried
 * across the round trip by RoundTripState, and ended by its own handler. A feature that starts such a round trip
 * marks its provider @RoundTripPurposeHandler(), so federation never imports it.
 */
export interface RoundTripPurpose<Ticket = unknown> extends RoundTripHandler<Ticket> {
  /** The start's query parameter that carries the ticket. */
  readonly name: string;
  /** Whether a disabled connection serves it. */
  readonly disabledConnections?: boolean;
  /** The ticket of a start through this connection (null: the deployment-wide provider), or its refusal. */
  readTicket(raw: string, connectionId: number | null): Ticket;
}

/** What a round trip's refusal tells the person: its own message, or the generic failure for anything else. */
export function refusalMessage(e: unknown): string {
  return e instanceof AppException ? (e.getResponse() as { message: string }).message : SSO_MESSAGES.FAILED;
}

/** Sends the browser back to the sign-in page with the reason a corporate sign-in failed. */
export function backToLogin(res: Response, e: unknown): void {
  res.redirect(302, `/logIn?ssoError=${encodeURIComponent(refusalMessage(e))}`);
}

/** The providers marked @RoundTripPurposeHandler(). */
const purposeMarker = DiscoveryService.createDecorator<true>();

/** Marks a provider as a round trip's purpose: RoundTripPurposes finds it at start. */
export function RoundTripPurposeHandler() {
  return (target: abstract new (...args: never[]) => RoundTripPurpose): void => {
    purposeMarker(true)(target);
  };
}

/**
 * The purposes of the features that start round trips (their providers marked @RoundTripPurposeHandler(), found at
 * start), by the query parameter of their ticket. Two purposes of one name fail the start.
 */
@Injectable()
export class RoundTripPurposes implements OnModuleInit {
  private readonly purposes = new Map<string, RoundTripPurpose>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: purposeMarker.KEY })) {
      const purpose = wrapper.instance as RoundTripPurpose | undefined;
      if (!purpose) throw new Error(`The round-trip purpose ${String(wrapper.name)} must be a singleton`);
      const taken = this.purposes.get(purpose.name);
      if (taken)
        throw new Error(
          `Two round-trip purposes are named '${purpose.name}': ${taken.constructor.name} and ${purpose.constructor.name}`,
        );
      this.purposes.set(purpose.name, purpose);
    }
  }

  named(name: string): RoundTripPurpose | undefined {
    return this.purposes.get(name);
  }

  /**
   * The purpose and ticket a start's query names, at most one; none: a sign-in. A ticket that is not valid, or two
   * purposes at once, is the refusal the sign-in page shows.
   */
  fromStart(
    tickets: Record<string, string | undefined>,
    connectionId: number | null,
  ): { purpose: RoundTripPurpose; ticket: unknown } | undefined {
    const given = Object.entries(tickets).filter(([, raw]) => raw !== undefined);
    if (given.length === 0) return undefined;
    const purposes = given.map(([name]) => this.purposes.get(name));
    if (given.length > 1 || !purposes[0])
      throw AppException.badRequest(SSO_MESSAGES.STEP_UP_EXPIRED, ERROR_CODES.SSO_FAILED);
    return { purpose: purposes[0], ticket: purposes[0].readTicket(given[0][1]!, connectionId) };
  }
}
