import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { AppException } from '../../../platform/web/app.exception';
import { ERROR_CODES } from '../../../shared/messages';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { RoundTripPurpose, RoundTripPurposeHandler, RoundTripPurposes } from './round-trip-purpose';

type Ticket = { raw: string; connectionId: number | null };

/** A purpose whose tickets are valid when they start with 'ok'. */
abstract class OkPurpose implements RoundTripPurpose<Ticket> {
  abstract readonly name: string;
  readTicket(raw: string, connectionId: number | null): Ticket {
    if (!raw.startsWith('ok')) throw AppException.badRequest(`${this.name} expired`);
    return { raw, connectionId };
  }
  async end(): Promise<void> {}
}

@Injectable()
@RoundTripPurposeHandler()
class StepUpPurpose extends OkPurpose {
  readonly name = 'stepUp';
}

@Injectable()
@RoundTripPurposeHandler()
class TestPurpose extends OkPurpose {
  readonly name = 'test';
}

@Injectable()
@RoundTripPurposeHandler()
class TestPurposeAgain extends OkPurpose {
  readonly name = 'test';
}

/** Not marked: never a purpose. */
@Injectable()
class Unmarked extends OkPurpose {
  readonly name = 'unmarked';
}

/** RoundTripPurposes as the application starts it, beside these providers. */
async function started(...providers: Array<new () => OkPurpose>): Promise<RoundTripPurposes> {
  const app = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [RoundTripPurposes, ...providers],
  }).compile();
  await app.init();
  return app.get(RoundTripPurposes);
}

const refusalOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as AppException).getResponse();
  }
  return null;
};

describe('RoundTripPurposes', () => {
  let purposes: RoundTripPurposes;
  beforeAll(async () => {
    purposes = await started(StepUpPurpose, TestPurpose, Unmarked);
  });

  it('finds the purpose whose ticket a start carries, with the ticket its purpose read; none: a sign-in', () => {
    expect(purposes.fromStart({ stepUp: undefined, test: undefined }, 3)).toBeUndefined();
    const started = purposes.fromStart({ stepUp: undefined, test: 'ok-1' }, 3);
    expect(started?.purpose.name).toBe('test');
    expect(started?.ticket).toEqual({ raw: 'ok-1', connectionId: 3 });
    expect(purposes.fromStart({ stepUp: 'ok-2' }, null)?.ticket).toEqual({ raw: 'ok-2', connectionId: null });
    expect(purposes.named('stepUp')?.name).toBe('stepUp');
  });

  it('refuses a ticket its purpose does not accept, two purposes at once, and a purpose nobody registered', () => {
    expect(refusalOf(() => purposes.fromStart({ test: 'forged' }, 3))).toMatchObject({ message: 'test expired' });
    const twice = { code: ERROR_CODES.SSO_FAILED, message: SSO_MESSAGES.STEP_UP_EXPIRED };
    expect(refusalOf(() => purposes.fromStart({ stepUp: 'ok-1', test: 'ok-2' }, 3))).toMatchObject(twice);
    expect(refusalOf(() => purposes.fromStart({ other: 'ok' }, 3))).toMatchObject(twice);
  });

  it('finds the providers marked @RoundTripPurposeHandler() at start, only those', () => {
    expect(purposes.named('test')).toBeInstanceOf(TestPurpose);
    expect(purposes.named('unmarked')).toBeUndefined();
  });

  it('fails the start when two purposes have one name', async () => {
    await expect(started(TestPurpose, TestPurposeAgain)).rejects.toThrow(
      /Two round-trip purposes are named 'test': TestPurpose and TestPurposeAgain/,
    );
  });
});
