import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/**
 * Which proxies in front of the application may say who the client is (TRUST_PROXY, docs/security.md): a number
 * of proxies (hops) each appending the address it received the request from to X-Forwarded-For, or the proxies'
 * own addresses and ranges. `{ hops: 0 }` trusts nobody: the client is the connection's address.
 */
export type ProxyTrust = { readonly hops: number } | { readonly proxies: readonly string[] };

export const NO_PROXY: ProxyTrust = { hops: 0 };

/** The most proxies TRUST_PROXY may count. */
export const PROXY_HOPS_MAX = 10;

/** The names Express's 'trust proxy' takes for well-known ranges, as their ranges. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * TRUST_PROXY's text as a {@link ProxyTrust}: unset, empty or `false` trusts nobody; `true` one proxy (the shipped
 * nginx); a whole number that many proxies; otherwise a comma-separated list of proxy addresses, CIDR ranges and the
 * names `loopback`, `linklocal`, `uniquelocal`. Throws an Error saying what is wrong with the text.
 */
export function parseProxyTrust(text: string | undefined): ProxyTrust {
  const value = (text ?? '').trim();
  if (value === '' || value === 'false') return NO_PROXY;
  if (value === 'true') return { hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > PROXY_HOPS_MAX) throw new Error(`counts at most ${PROXY_HOPS_MAX} proxies (got ${value})`);
    return { hops };
  }
  const proxies = value.split(',').flatMap((entry) => {
    const item = entry.trim();
    const named = NAMED_RANGES[item.toLowerCase()];
    if (named) return named;
    const range = cidr(item);
    if (!range)
      throw new Error(`must be true, false, a number of proxies or a list of addresses and ranges (got "${item}")`);
    return [range];
  });
  return { proxies: [...new Set(proxies)] };
}

/** One address or CIDR range in its canonical text (an address as its /32 or /128), or null when it is not one. */
function cidr(text: string): string | null {
  const [address, prefix, ...rest] = text.split('/');
  const kind = isIP(address);
  if (kind === 0 || rest.length > 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) return null;
  const bits = prefix === undefined ? (kind === 4 ? 32 : 128) : Number(prefix);
  if (bits > (kind === 4 ? 32 : 128)) return null;
  const [net] = ipaddr.parseCIDR(`${address}/${bits}`);
  return `${net.toString()}/${bits}`;
}

/** The same trust as Express's 'trust proxy' setting takes it (for req.protocol and req.hostname). */
export function expressTrustSetting(trust: ProxyTrust): number | string[] {
  return 'hops' in trust ? trust.hops : [...trust.proxies];
}
