import { negotiate } from './client-assets.middleware';

describe('negotiate (Accept-Encoding)', () => {
  const all = { br: 1, gzip: 1, identity: 1 };
  it('prefers brotli, then gzip, then the original', () => {
    expect(negotiate('gzip, deflate, br, zstd', all)).toBe('br');
    expect(negotiate('gzip', all)).toBe('gzip');
    expect(negotiate(undefined, all)).toBe('identity');
    expect(negotiate('', all)).toBe('identity');
  });
  it('honours q=0 and the wildcard', () => {
    expect(negotiate('br;q=0, gzip', all)).toBe('gzip');
    expect(negotiate('*', all)).toBe('br');
    expect(negotiate('*;q=0, identity', all)).toBe('identity');
    expect(negotiate('BR;Q=0.5', all)).toBe('br');
  });
  it('sends only what exists', () => {
    expect(negotiate('br, gzip', { gzip: 1, identity: 1 })).toBe('gzip');
    expect(negotiate('br, gzip', { identity: 1 })).toBe('identity');
  });
});
