import { Injectable } from '@nestjs/common';
import { AppException } from '../../../platform/web/app.exception';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { backToLogin, RoundTripEnd, RoundTripPurpose, RoundTripPurposeHandler } from '../round-trip/round-trip-purpose';
import { SsoConnectionTestService, SsoTestEnd, SsoTestTicket } from './sso-connection-test.service';

/**
 * An administrator's test round trip (`?test=` of POST /api/sso-connections/{id}/test), through a connection enabled
 * or not. It ends on the Single Sign-On page with the result, whatever the provider said; only a connection that
 * is gone ends on the sign-in page.
 */
@Injectable()
@RoundTripPurposeHandler()
export class ConnectionTestEnd implements RoundTripPurpose<SsoTestTicket> {
  readonly name = 'test';
  readonly disabledConnections = true;

  constructor(private readonly tests: SsoConnectionTestService) {}

  readTicket(raw: string, connectionId: number | null): SsoTestTicket {
    if (connectionId === null) throw AppException.badRequest(SSO_MESSAGES.TEST_EXPIRED);
    return this.tests.readTicket(raw, connectionId);
  }

  async end(ticket: SsoTestTicket, end: RoundTripEnd): Promise<void> {
    try {
      const c = await end.connection({ disabledToo: true });
      if (!c) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
      let result: SsoTestEnd;
      try {
        result = { identity: await end.identity(c) };
      } catch (e) {
        result = { error: e };
      }
      end.res.redirect(302, await this.tests.record(c, ticket, result, end.client));
    } catch (e) {
      backToLogin(end.res, e);
    }
  }
}
