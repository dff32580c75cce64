import { SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { RoundTripState } from './round-trip-state';

describe.each(SERVICE_DATABASES)("RoundTripState's SAML purposes on %s", (database) => {
  const t = serviceApp(database);
  const state = () => t().app.get(RoundTripState);

  it('brings a purpose and a ticket longer than one stored value back once, with the time the round trip began', async () => {
    const returnTo = `/users?q=${'é'.repeat(150)}&page=2`;
    const ticket = { sid: '6f1c2d3e-0000-4000-8000-000000000001', sub: 42, returnTo };
    const before = Date.now();
    const relayState = await state().keepSaml({ purpose: 'stepUp', ticket });
    expect(relayState.length).toBeLessThanOrEqual(80);

    const taken = await state().takeSaml(relayState);
    expect(taken).toEqual({ purpose: 'stepUp', ticket, startedAt: expect.any(Number) });
    expect(taken!.startedAt).toBeGreaterThanOrEqual(before);
    expect(await state().takeSaml(relayState)).toBeUndefined();
  });

  it('knows no purpose for a RelayState it did not give, or one taken by parallel answers but once', async () => {
    expect(await state().takeSaml('not-ours')).toBeUndefined();
    const relayState = await state().keepSaml({ purpose: 'test', ticket: { sub: 7, returnTo: '/users/sso' } });
    const answers = await Promise.all([1, 2, 3, 4].map(() => state().takeSaml(relayState)));
    expect(answers.filter((a) => a !== undefined)).toEqual([
      { purpose: 'test', ticket: { sub: 7, returnTo: '/users/sso' }, startedAt: expect.any(Number) },
    ]);
  });

  it("carries a sign-in's return path, without a purpose", async () => {
    const relayState = await state().keepSaml({ returnTo: '/oidc/interaction/abc' });
    expect(await state().takeSaml(relayState)).toEqual({
      returnTo: '/oidc/interaction/abc',
      startedAt: expect.any(Number),
    });
  });
});
