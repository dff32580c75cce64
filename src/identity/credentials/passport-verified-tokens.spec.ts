import { PASSPORT_VERIFIED_MAX, PassportVerifiedTokens } from './passport-verified-tokens';

describe('PassportVerifiedTokens', () => {
  let clock = 1_000_000_000_000;
  const tokens = (max?: number) => new PassportVerifiedTokens(max, () => clock);
  const inSeconds = (s: number) => Math.floor(clock / 1000) + s;

  it('knows exactly the tokens it was told of, and nothing that differs from them', () => {
    const known = tokens();
    known.remember('aaa.bbb.ccc', inSeconds(900));
    expect(known.verified('aaa.bbb.ccc')).toBe(true);
    for (const other of ['aaa.bbb.ccd', 'aaa.bbb.cc', 'aaa.bbb.ccc ', 'AAA.bbb.ccc', ''])
      expect(known.verified(other)).toBe(false);
  });

  it('forgets a token from the second its expiry is reached, and never keeps an expired one', () => {
    const known = tokens();
    const exp = inSeconds(900);
    known.remember('t', exp);
    clock = exp * 1000 - 1;
    expect(known.verified('t')).toBe(true);
    clock = exp * 1000;
    expect(known.verified('t')).toBe(false);
    // Gone, even if the clock went back.
    clock = exp * 1000 - 5000;
    expect(known.verified('t')).toBe(false);
    known.remember('late', Math.floor(clock / 1000));
    expect(known.verified('late')).toBe(false);
  });

  it('keeps at most its size, dropping the least recently used', () => {
    const known = tokens(3);
    for (const t of ['a', 'b', 'c']) known.remember(t, inSeconds(900));
    expect(known.verified('a')).toBe(true); // b is now the least recently used
    known.remember('d', inSeconds(900));
    expect(known.verified('b')).toBe(false);
    for (const t of ['a', 'c', 'd']) expect(known.verified(t)).toBe(true);
    known.remember('c', inSeconds(900)); // told again: kept once, and now the most recent
    known.remember('e', inSeconds(900));
    expect(known.verified('a')).toBe(false);
    for (const t of ['c', 'd', 'e']) expect(known.verified(t)).toBe(true);
  });

  it(`holds ${PASSPORT_VERIFIED_MAX} tokens by default`, () => {
    const known = tokens();
    for (let i = 0; i <= PASSPORT_VERIFIED_MAX; i++) known.remember(`token-${i}`, inSeconds(900));
    expect(known.verified('token-0')).toBe(false);
    expect(known.verified('token-1')).toBe(true);
    expect(known.verified(`token-${PASSPORT_VERIFIED_MAX}`)).toBe(true);
  });
});
