import { addressAllowed, canonicalRange, lifetimeOver } from './security-policy-rules';

describe('security policy rules', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0/8'],
    [' 203.0.113.7 ', '203.0.113.7/32'],
    ['2001:DB8:0:0::/32', '2001:db8::/32'],
    ['::1', '::1/128'],
    ['0.0.0.0/0', '0.0.0.0/0'],
  ])('reads %j as %j', (text, canonical) => expect(canonicalRange(text)).toBe(canonical));

  it.each(['', '10.1', '0x0a.0.0.1', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/1', '10.0.0.0/-1', 'example.com'])(
    'refuses %j',
    (text) => expect(canonicalRange(text)).toBeNull(),
  );

  it('matches IPv4, IPv6 and IPv4-mapped IPv6 clients; an empty list allows all; an unreadable address none', () => {
    const ranges = ['10.0.0.0/8', '2001:db8::/32'];
    expect(addressAllowed(ranges, '10.20.30.40')).toBe(true);
    expect(addressAllowed(ranges, '::ffff:10.20.30.40')).toBe(true);
    expect(addressAllowed(ranges, '2001:db8::99')).toBe(true);
    expect(addressAllowed(ranges, '11.0.0.1')).toBe(false);
    expect(addressAllowed(ranges, '2001:db9::1')).toBe(false);
    expect(addressAllowed(ranges, undefined)).toBe(false);
    expect(addressAllowed(ranges, 'unknown')).toBe(false);
    expect(addressAllowed([], undefined)).toBe(true);
  });

  it('ends a session idle that long, or that old, and not a moment before', () => {
    const at = Date.UTC(2026, 0, 1, 12);
    const s = {
      createdAt: new Date(at),
      lastActiveAt: new Date(at),
      sessionIdleMinutes: 5,
      sessionMaxHours: 1,
    };
    expect(lifetimeOver(s, at + 5 * 60_000 - 1)).toBeNull();
    expect(lifetimeOver(s, at + 5 * 60_000)).toBe('idle');
    const busy = { ...s, lastActiveAt: new Date(at + 59 * 60_000) };
    expect(lifetimeOver(busy, at + 60 * 60_000 - 1)).toBeNull();
    expect(lifetimeOver(busy, at + 60 * 60_000)).toBe('policy-max-age');
    expect(lifetimeOver({ ...s, sessionIdleMinutes: null, sessionMaxHours: null }, at + 1e12)).toBeNull();
  });
});
