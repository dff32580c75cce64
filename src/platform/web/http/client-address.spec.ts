import { NO_PROXY, parseProxyTrust } from '../../config/proxy-trust';
import { clientAddress, normalAddress } from './client-address';

describe('clientAddress: the right-most X-Forwarded-For entry no trusted proxy wrote', () => {
  const ONE = parseProxyTrust('true');
  const TWO = parseProxyTrust('2');

  it('trusts nobody by default: the header is ignored', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.7', NO_PROXY)).toBe('198.51.100.7');
    expect(clientAddress(undefined, '198.51.100.7', NO_PROXY)).toBe('198.51.100.7');
  });

  it('behind one proxy: the entry the proxy appended, never what the client wrote before it', () => {
    expect(clientAddress('198.51.100.7', '127.0.0.1', ONE)).toBe('198.51.100.7');
    expect(clientAddress('127.0.0.1, 198.51.100.7', '127.0.0.1', ONE)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.1,10.0.0.2 ,  198.51.100.7', '127.0.0.1', ONE)).toBe('198.51.100.7');
    // Two headers are one list, in order.
    expect(clientAddress(['127.0.0.1', '198.51.100.7'], '127.0.0.1', ONE)).toBe('198.51.100.7');
    // No header (the proxy itself calling): the connection.
    expect(clientAddress(undefined, '127.0.0.1', ONE)).toBe('127.0.0.1');
    expect(clientAddress('  ', '127.0.0.1', ONE)).toBe('127.0.0.1');
  });

  it('behind two proxies: the entry the outer one appended', () => {
    expect(clientAddress('127.0.0.1, 198.51.100.7, 10.0.0.9', '10.0.0.1', TWO)).toBe('198.51.100.7');
    // Fewer entries than proxies: the left-most is the furthest known.
    expect(clientAddress('198.51.100.7', '10.0.0.1', TWO)).toBe('198.51.100.7');
  });

  it('by the proxies’ addresses: walks back while the address is a proxy’s', () => {
    const trust = parseProxyTrust('10.0.0.0/8, loopback');
    expect(clientAddress('127.0.0.1, 198.51.100.7, 10.0.0.9', '127.0.0.1', trust)).toBe('198.51.100.7');
    // A connection from outside the proxies is the client, whatever it writes.
    expect(clientAddress('10.0.0.9', '198.51.100.7', trust)).toBe('198.51.100.7');
    // Every entry a proxy: the left-most.
    expect(clientAddress('10.0.0.3, 10.0.0.9', '127.0.0.1', trust)).toBe('10.0.0.3');
    // The socket of a dual-stack listener reports IPv4 as IPv4-mapped IPv6: still the proxy.
    expect(clientAddress('198.51.100.7', '::ffff:10.0.0.9', trust)).toBe('198.51.100.7');
    expect(clientAddress('198.51.100.7', '::ffff:198.51.100.8', trust)).toBe('198.51.100.8');
  });

  it('IPv6: canonical text, mapped IPv4 as IPv4, brackets and ports dropped', () => {
    expect(clientAddress('2001:DB8:0:0::7', '::1', ONE)).toBe('2001:db8::7');
    expect(clientAddress('::ffff:198.51.100.7', '::1', ONE)).toBe('198.51.100.7');
    expect(clientAddress('[2001:db8::7]:41234', '::1', ONE)).toBe('2001:db8::7');
    expect(clientAddress('198.51.100.7:41234', '::1', ONE)).toBe('198.51.100.7');
    expect(clientAddress(undefined, '::ffff:127.0.0.1', NO_PROXY)).toBe('127.0.0.1');
    expect(clientAddress(undefined, '::FFFF:127.0.0.1', NO_PROXY)).toBe('127.0.0.1');
    expect(clientAddress(undefined, '::ffff:7f00:1', NO_PROXY)).toBe('127.0.0.1');
    expect(clientAddress(undefined, '::ffff:0:127.0.0.1', NO_PROXY)).toBe('::ffff:0:7f00:1');
    expect(clientAddress(undefined, '::1', NO_PROXY)).toBe('::1');
  });

  it('a malformed entry where the walk reads it leaves the client unknown; beyond it, it is never read', () => {
    for (const header of [
      'localhost',
      '198.51.100.7, ',
      '0x7f.1',
      '127.1',
      '1.2.3.4.5',
      '[::1',
      'unknown',
      '::ffff:zz',
    ])
      expect(clientAddress(header, '127.0.0.1', ONE)).toBeNull();
    expect(clientAddress('198.51.100.7, junk', '10.0.0.1', TWO)).toBeNull();
    expect(clientAddress('junk, 198.51.100.7', '127.0.0.1', ONE)).toBe('198.51.100.7');
    expect(clientAddress('a'.repeat(10_000), '127.0.0.1', NO_PROXY)).toBe('127.0.0.1');
    expect(clientAddress(undefined, undefined, ONE)).toBeNull();
  });

  it('normalAddress refuses what is not an address', () => {
    expect(normalAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(normalAddress('fe80::1%eth0')).toBe('fe80::1%eth0');
    for (const text of ['', '1.2.3', '010.0.0.1', '2001:db8::7:99999', '[2001:db8::7]x', '1.2.3.4:port'])
      expect(normalAddress(text)).toBeNull();
  });
});
