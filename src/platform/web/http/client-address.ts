import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';
import { ProxyTrust } from '../../config/proxy-trust';

/** A proxy range as it is matched: IPv4 as a 32-bit network and mask, IPv6 parsed. */
type ProxyRange = { v4: true; net: number; mask: number } | { v4: false; net: ipaddr.IPv6; bits: number };

/** Parsed proxy ranges, by the trust they belong to (the configuration's one object). */
const parsedProxies = new WeakMap<ProxyTrust, ProxyRange[]>();

/** An IPv4 address in four decimal parts (checked by the caller) as an unsigned 32-bit number. */
function ipv4Number(address: string): number {
  let n = 0;
  for (const part of address.split('.')) n = n * 256 + Number(part);
  return n;
}

function proxyRanges(trust: { readonly proxies: readonly string[] }): ProxyRange[] {
  return trust.proxies.map((text): ProxyRange => {
    const [net, bits] = ipaddr.parseCIDR(text);
    if (net.kind() === 'ipv6') return { v4: false, net: net as ipaddr.IPv6, bits };
    // `>>> 0` keeps the mask unsigned; a /0 masks nothing.
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return { v4: true, net: (ipv4Number(net.toString()) & mask) >>> 0, mask };
  });
}

/** Whether the proxy at this hop (0: the connection) is trusted; `address` is normalised ({@link normalAddress}). */
function trusted(trust: ProxyTrust, address: string, hop: number): boolean {
  if ('hops' in trust) return hop < trust.hops;
  let ranges = parsedProxies.get(trust);
  if (!ranges) parsedProxies.set(trust, (ranges = proxyRanges(trust)));
  if (isIP(address) === 4) {
    const n = ipv4Number(address);
    return ranges.some((r) => r.v4 && (n & r.mask) >>> 0 === r.net);
  }
  const parsed = ipaddr.IPv6.parse(address);
  return ranges.some((r) => !r.v4 && parsed.match(r.net, r.bits));
}

/**
 * An address as it is compared and recorded, or null when the text is not one: an IPv4-mapped IPv6 address (as a
 * dual-stack socket reports an IPv4 client) as IPv4, IPv6 in its canonical lower-case form, so that one address has
 * one text (a throttle's key). A port some proxies add (`203.0.113.7:41234`, `[2001:db8::7]:41234`) and the brackets
 * around IPv6 are dropped. IPv4 must be four decimal parts: a legacy form (`0x7f.1`) is no address.
 */
export function normalAddress(text: string): string | null {
  let address = text.trim();
  if (address.startsWith('[')) {
    const end = address.indexOf(']');
    if (end < 0 || !/^(:\d{1,5})?$/.test(address.slice(end + 1))) return null;
    address = address.slice(1, end);
    if (isIP(address) !== 6) return null;
  } else if (/^[\d.]+:\d{1,5}$/.test(address)) address = address.slice(0, address.indexOf(':'));
  // The common case of a dual-stack socket, without an IPv6 parse: `::ffff:` and four decimal parts.
  if (/^::ffff:/i.test(address) && isIP(address.slice(7)) === 4) return address.slice(7);
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind !== 6) return null;
  // The WHATWG URL parser writes IPv6 canonically (RFC 5952) and quickly; a zone (`fe80::1%eth0`) it refuses.
  const canonical = address.includes('%')
    ? address.toLowerCase()
    : new URL(`http://[${address}]`).hostname.slice(1, -1);
  return canonical.startsWith('::ffff:') ? ipaddr.process(canonical).toString() : canonical;
}

/**
 * The client address of a request: the one rule for Express's `req.ip` (configureApp) and the socket handshake.
 * Walking back from the connection, each address a trusted proxy handed over (X-Forwarded-For, right to left) is
 * taken while the one before it is trusted: the right-most entry no trusted proxy wrote is the client, so what a
 * client writes into the header itself never counts. With every entry trusted, the left-most is the client. An
 * entry that is not an address where the walk reads it leaves the client unknown (null): nothing a broken chain
 * says is believed, and an unknown address is inside no allowed range.
 */
export function clientAddress(
  forwardedFor: string | string[] | undefined,
  connectionAddress: string | undefined,
  trust: ProxyTrust,
): string | null {
  const connection = connectionAddress === undefined ? null : normalAddress(connectionAddress);
  if (connection === null || !trusted(trust, connection, 0)) return connection;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  if (header === undefined || header.trim() === '') return connection;
  const entries = header.split(',');
  let client = connection;
  for (let hop = 1; hop <= entries.length; hop++) {
    const entry = normalAddress(entries[entries.length - hop]);
    if (entry === null) return null;
    client = entry;
    if (!trusted(trust, client, hop)) return client;
  }
  return client;
}

/** The client address of a Node request (Express's, or a socket's handshake): {@link clientAddress}. */
export function clientAddressOf(
  req: { headers: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string } },
  trust: ProxyTrust,
): string | null {
  return clientAddress(req.headers['x-forwarded-for'], req.socket?.remoteAddress, trust);
}
