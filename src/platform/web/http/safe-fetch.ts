import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { IncomingMessage, request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/** Why a customer-supplied URL was not fetched. */
export type SafeFetchErrorCode =
  | 'BAD_URL'
  | 'BAD_HEADER'
  | 'NOT_HTTPS'
  | 'PRIVATE_ADDRESS'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'TOO_MANY_REDIRECTS'
  | 'NETWORK';

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

export interface SafeFetchOptions {
  /** SSO_ALLOW_PRIVATE_NETWORKS: plain http and private, loopback and link-local addresses allowed. */
  allowPrivateNetworks: boolean;
  /** For the whole exchange, redirects included; default 5 s. */
  timeoutMs?: number;
  /** For the connection alone (each hop's TCP connect); default: only the whole exchange's deadline. */
  connectTimeoutMs?: number;
  /** Largest response body; default 1 MiB. */
  maxBytes?: number;
  /**
   * A body beyond `maxBytes`: `fail` (the default, for callers that need the whole body) refuses the answer with
   * TOO_LARGE; `truncate` (for callers that need only the status) stops reading there, closes the connection and
   * answers with the first `maxBytes`.
   */
  overLimit?: 'fail' | 'truncate';
  maxRedirects?: number;
  /** Name resolution (default: the system's, every address). */
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
  /** Certificates to trust beyond the system's (a test's own certificate authority). */
  ca?: string | Buffer;
}

/** The parts of RequestInit used here: what openid-client's customFetch and a plain metadata fetch pass. */
export interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string> | Headers | Array<[string, string]>;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | ReadableStream | null;
  redirect?: 'follow' | 'manual' | 'error';
  signal?: AbortSignal | null;
}

export type SafeFetch = (url: string | URL, init?: SafeFetchInit) => Promise<Response>;

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 3;

/**
 * Every range that is not the public internet: this host, private networks (RFC 1918, unique local), carrier-grade
 * NAT, link-local (cloud metadata services live there), multicast, documentation and reserved blocks. IPv6 forms
 * that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address (see {@link isPublicAddress}).
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zero(0, 5) && groups[5] === 0xffff) return v4(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included), or null when it is not one. */
function expandIpv6(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

/** Whether an address is on the public internet (the only kind a customer-supplied URL may reach by default). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return isPublicAddress(v4);
  return !NOT_PUBLIC.check(address, 'ipv6');
}

const systemLookup = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

async function bodyBytes(body: SafeFetchInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return Buffer.from(body as Uint8Array);
  return Buffer.from(await new Response(body).arrayBuffer());
}

function headersOf(init: SafeFetchInit['headers'], body: Buffer | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  let headers: Headers;
  try {
    headers = new Headers(init ?? {});
  } catch {
    // The platform's message quotes the value, which may be a credential: it is not passed on.
    throw new SafeFetchError('BAD_HEADER', 'a header name or value carries a character headers cannot carry');
  }
  headers.forEach((value, name) => (out[name] = value));
  // The body is passed on as it came; asking for no compression keeps the 1 MiB cap a cap on real content.
  delete out['accept-encoding'];
  if (body !== undefined) out['content-length'] = String(body.length);
  return out;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch for URLs that customers supply (OIDC issuer discovery, JWKS, SAML metadata): https only, the name
 * resolved once and every address checked before connecting, the connection made to the checked address (no
 * second lookup a DNS-rebinding answer could change), redirects checked the same way, a deadline for the whole
 * exchange and a cap on the body. `allowPrivateNetworks` lifts the address and https rules, never the limits.
 * Its signature fits openid-client's `customFetch` and a plain `fetch(url)`.
 */
export function createSafeFetch(options: SafeFetchOptions): SafeFetch {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const truncate = options.overLimit === 'truncate';
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const lookup = options.lookup ?? systemLookup;

  async function addressOf(url: URL): Promise<LookupAddress> {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: LookupAddress[];
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await lookup(host);
      } catch (e) {
        throw new SafeFetchError('NETWORK', `${host} could not be resolved (${(e as NodeJS.ErrnoException).code})`);
      }
    }
    if (addresses.length === 0) throw new SafeFetchError('NETWORK', `${host} has no address`);
    // Every answer is checked, not only the one used: a name that also points inward is refused outright.
    const inward = addresses.find((a) => !isPublicAddress(a.address));
    if (inward && !options.allowPrivateNetworks)
      throw new SafeFetchError('PRIVATE_ADDRESS', `${host} resolves to a private or reserved address`);
    return addresses[0];
  }

  function once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
    signal: AbortSignal,
    to: LookupAddress,
  ) {
    return new Promise<Response>((resolve, reject) => {
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const request: RequestOptions & { servername?: string; ca?: string | Buffer } = {
        method,
        host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host, ...headers },
        signal,
        agent: false,
        // The connection goes to the address checked above, whatever DNS would answer now.
        lookup: (_hostname, lookupOptions, callback) => {
          const cb = callback as (err: Error | null, address: string | LookupAddress[], family?: number) => void;
          if ((lookupOptions as { all?: boolean }).all) cb(null, [to]);
          else cb(null, to.address, to.family);
        },
      };
      if (url.protocol === 'https:') {
        if (!isIP(host)) request.servername = host;
        if (options.ca) request.ca = options.ca;
      }
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(request, (res: IncomingMessage) => {
        const status = res.statusCode ?? 502;
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const answer = () => {
          if (settled) return;
          settled = true;
          const responseHeaders = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
          const hasBody = !NULL_BODY.has(status) && method !== 'HEAD';
          const response = new Response(hasBody ? Buffer.concat(chunks) : null, {
            status,
            statusText: res.statusMessage,
            headers: responseHeaders,
          });
          Object.defineProperty(response, 'url', { value: url.href });
          resolve(response);
        };
        const tooLarge = () => {
          res.destroy();
          if (truncate) return answer();
          settled = true;
          reject(new SafeFetchError('TOO_LARGE', `the response is larger than ${maxBytes} bytes`));
        };
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes && !truncate) return tooLarge();
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = maxBytes - size;
          size += chunk.length;
          if (size > maxBytes) {
            if (room > 0) chunks.push(chunk.subarray(0, room));
            tooLarge();
          } else chunks.push(chunk);
        });
        res.on('error', (e) => {
          if (!settled) reject(e);
        });
        res.on('end', answer);
      });
      req.on('error', reject);
      if (options.connectTimeoutMs !== undefined) {
        const ms = options.connectTimeoutMs;
        req.on('socket', (socket) => {
          const timer = setTimeout(
            () => req.destroy(new SafeFetchError('TIMEOUT', `no connection within ${ms} ms`)),
            ms,
          );
          socket.once('connect', () => clearTimeout(timer));
          socket.once('close', () => clearTimeout(timer));
        });
      }
      req.end(body);
    });
  }

  return async (input, init = {}) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    let url: URL;
    try {
      url = new URL(String(input));
    } catch {
      throw new SafeFetchError('BAD_URL', 'not a URL');
    }
    let method = (init.method ?? 'GET').toUpperCase();
    let body = await bodyBytes(init.body);
    const headers = headersOf(init.headers, body);
    for (let hop = 0; ; hop++) {
      const allowed = options.allowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
      if (!allowed.includes(url.protocol)) throw new SafeFetchError('NOT_HTTPS', `${url.protocol}// URLs are refused`);
      let response: Response;
      try {
        response = await once(url, method, headers, body, signal, await addressOf(url));
      } catch (e) {
        if (e instanceof SafeFetchError) throw e;
        if (deadline.aborted) throw new SafeFetchError('TIMEOUT', `no complete answer within ${timeoutMs} ms`);
        if (signal.aborted) throw signal.reason;
        throw new SafeFetchError('NETWORK', (e as Error).message);
      }
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null || init.redirect === 'manual') return response;
      if (init.redirect === 'error' || hop >= maxRedirects)
        throw new SafeFetchError('TOO_MANY_REDIRECTS', `more than ${maxRedirects} redirects`);
      const next = new URL(location, url);
      // Credentials meant for one origin are not carried to another.
      if (next.origin !== url.origin) for (const name of ['authorization', 'cookie']) delete headers[name];
      url = next;
      if (response.status === 303 || (response.status !== 307 && response.status !== 308 && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-length'];
        delete headers['content-type'];
      }
    }
  };
}
