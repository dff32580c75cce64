import helmet, { HelmetOptions } from 'helmet';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { DEFAULT_HEADERS, helmetHeaders, securityHeaderOptions, securityHeaders } from './security-headers';

const SECURITY_HEADERS = securityHeaderOptions('https://portal.example.com');

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** The headers of a real answer from a node:http server whose one middleware is `mw` (X-Powered-By set before it). */
async function headersThrough(mw: Middleware): Promise<Record<string, string>> {
  const server = createServer((req, res) => {
    res.setHeader('X-Powered-By', 'Express');
    mw(req, res, () => res.end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) {
        headers[name] = value;
      }
    });
    return headers;
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('security headers, worked out once', () => {
  it("are exactly helmet's own for the application's options, and X-Powered-By is removed as helmet removes it", async () => {
    const ours = await headersThrough(securityHeaders(SECURITY_HEADERS));
    const helmets = await headersThrough(helmet(SECURITY_HEADERS) as unknown as Middleware);
    expect(ours).toEqual(helmets);
    expect(ours['x-powered-by']).toBeUndefined();
    expect(ours['content-security-policy']).toContain("default-src 'self'");
    expect(ours['content-security-policy']).toMatch(/connect-src 'self' wss:\/\/portal\.example\.com(;|$)/);
    expect(ours['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(ours['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(ours['x-frame-options']).toBe('SAMEORIGIN');
    expect(ours['x-content-type-options']).toBe('nosniff');
  });

  it("limits connect-src to the origin and PUBLIC_URL's websocket, never any host", () => {
    const csp = (url: string) =>
      helmetHeaders(securityHeaderOptions(url)).set.find(([name]) => name === 'Content-Security-Policy')?.[1];
    expect(csp('http://localhost:3000')).toMatch(/connect-src 'self' ws:\/\/localhost:3000(;|$)/);
    expect(csp('https://portal.example.com/base')).toMatch(/connect-src 'self' wss:\/\/portal\.example\.com(;|$)/);
    expect(csp('http://localhost:3000')).not.toMatch(/connect-src[^;]*\bwss?:(\s|;|$)/);
  });

  it('puts no-store first on every answer, which a later middleware or route may replace', async () => {
    const headers = await headersThrough(securityHeaders(SECURITY_HEADERS, DEFAULT_HEADERS));
    expect(headers['cache-control']).toBe('no-store');
    const replaced = await headersThrough((req, res, next) =>
      securityHeaders(SECURITY_HEADERS, DEFAULT_HEADERS)(req, res, () => {
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        next();
      }),
    );
    expect(replaced['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('follows the options given (a different policy gives different headers)', () => {
    const strict = helmetHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ["'none'"] } } });
    const csp = strict.set.find(([name]) => name === 'Content-Security-Policy');
    expect(csp?.[1]).toContain("default-src 'none'");
    expect(helmetHeaders({ frameguard: { action: 'deny' } }).set).toContainEqual(['X-Frame-Options', 'DENY']);
  });

  it('refuses a CSP directive computed per request (a nonce): helmet would then have to run on every request', () => {
    const perRequest: HelmetOptions = {
      contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-abc'"] } },
    };
    expect(() => helmetHeaders(perRequest)).toThrow(/scriptSrc depends on the request/);
  });
});
