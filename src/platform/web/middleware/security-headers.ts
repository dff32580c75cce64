import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { HelmetOptions } from 'helmet';

/**
 * helmet's headers on every answer; the client's pages load only from this origin (plus inline styles, images as
 * data or blob URLs), and connect only to it and to PUBLIC_URL's websocket (where a proxy serves the socket on the
 * public address, which 'self' of an internal address would not cover).
 */
export function securityHeaderOptions(publicUrl: string): HelmetOptions {
  const socket = new URL(publicUrl);
  socket.protocol = socket.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", socket.origin],
        upgradeInsecureRequests: null,
      },
    },
  };
}

/**
 * Set on every answer before anything else runs: API answers carry account data that no browser or proxy cache may
 * keep. The client's files set their own caching after it (ClientAssets, ServeStaticModule), as may a route.
 */
export const DEFAULT_HEADERS: ReadonlyArray<[name: string, value: string]> = [['Cache-Control', 'no-store']];

/** What helmet does to a response: the headers it sets, in order, and the ones it removes. */
export interface SecurityHeaderSet {
  set: Array<[name: string, value: string]>;
  removed: string[];
}

/**
 * Runs helmet once against a recording response and returns what it did. With options whose every value is
 * fixed (no function-valued CSP directive such as a per-request nonce, which this application does not use),
 * helmet's answer is the same for every request: refused if any directive is a function.
 */
export function helmetHeaders(options: HelmetOptions): SecurityHeaderSet {
  const directives = typeof options.contentSecurityPolicy === 'object' ? options.contentSecurityPolicy.directives : {};
  for (const [name, value] of Object.entries(directives ?? {})) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'function')) {
      throw new Error(`The CSP directive ${name} depends on the request; helmet must then run per request`);
    }
  }
  const result: SecurityHeaderSet = { set: [], removed: [] };
  const recorder = {
    setHeader(name: string, value: string) {
      result.set.push([name, value]);
    },
    removeHeader(name: string) {
      result.removed.push(name);
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return result;
}

/**
 * helmet's security headers (HSTS, CSP, X-Frame-Options, …), worked out once at start-up and set on every
 * response: helmet's own chain of thirteen middlewares recomputed the same values on each request, a
 * measurable share of a refresh's CPU (docs/decisions/).
 */
export function securityHeaders(options: HelmetOptions, defaults: ReadonlyArray<[string, string]> = []) {
  const { removed } = helmetHeaders(options);
  const set = [...defaults, ...helmetHeaders(options).set];
  return function securityHeaders(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
