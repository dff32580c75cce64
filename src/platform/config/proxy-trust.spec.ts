import { expressTrustSetting, parseProxyTrust } from './proxy-trust';

describe('parseProxyTrust (TRUST_PROXY)', () => {
  it('reads false, true, a count and a list', () => {
    expect(parseProxyTrust(undefined)).toEqual({ hops: 0 });
    expect(parseProxyTrust('false')).toEqual({ hops: 0 });
    expect(parseProxyTrust('true')).toEqual({ hops: 1 });
    expect(parseProxyTrust('3')).toEqual({ hops: 3 });
    expect(parseProxyTrust('10.0.0.7,10.0.0.7/32, uniquelocal')).toEqual({
      proxies: ['10.0.0.7/32', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
    });
  });

  it('gives Express the same trust', () => {
    expect(expressTrustSetting(parseProxyTrust('true'))).toBe(1);
    expect(expressTrustSetting(parseProxyTrust('loopback'))).toEqual(['127.0.0.0/8', '::1/128']);
  });

  it('refuses what it cannot read', () => {
    for (const text of ['yes', '11', '10.0.0.1,', 'proxy.internal', '10.0.0.0/33', '::/129', '10.1/8', '1e3'])
      expect(() => parseProxyTrust(text)).toThrow(Error);
  });
});
