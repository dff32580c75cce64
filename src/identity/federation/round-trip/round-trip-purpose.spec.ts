import { AppException } from '../../../platform/web/app.exception';
import { ERROR_CODES } from '../../../shared/messages';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { RoundTripPurpose, RoundTripPurposes } from './round-trip-purpose';

/** A purpose whose tickets are valid when they start with 'ok'. */
function purpose(name: string): RoundTripPurpose<{ raw: string; connectionId: number | null }> {
  return {
    name,
    readTicket: (raw, connectionId) => {
      if (!raw.startsWith('ok')) throw AppException.badRequest(`${name} expired`);
      return { raw, connectionId };
    },
    end: async () => undefined,
  };
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
  const purposes = new RoundTripPurposes();
  purposes.register(purpose('stepUp'));
  purposes.register(purpose('test'));

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

  it('takes one handler per purpose', () => {
    expect(() => purposes.register(purpose('test'))).toThrow(/registered already/);
  });
});
