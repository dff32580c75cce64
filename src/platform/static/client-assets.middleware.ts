import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isLoginAddress } from '../../shared/identity/login-address';

/** Vite puts every content-hashed file under /assets/; its name changes whenever its bytes do. */
export const HASHED_ASSETS_PREFIX = '/assets/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page the build renders the login card into (scripts/prerender-login.mjs); revalidated on every load. */
const LOGIN_HTML = 'login.html';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

type Coding = 'br' | 'gzip' | 'identity';

interface Variant {
  body: Buffer;
  etag: string;
}

interface Asset {
  type: string;
  variants: Partial<Record<Coding, Variant>>;
}

/** The codings the client accepts (RFC 9110 §12.5.3), best first among those we hold: br, gzip, identity. */
export function negotiate(acceptEncoding: string | undefined, available: Partial<Record<Coding, unknown>>): Coding {
  const q = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const accepts = (coding: string) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (available.br && accepts('br')) return 'br';
  if (available.gzip && accepts('gzip')) return 'gzip';
  return 'identity';
}

/**
 * Serves the client's hashed assets from the copies compressed at build time (scripts/compress-client.js)
 * by content negotiation, with `Vary: Accept-Encoding` and a year's immutable caching. Everything else
 * (index.html with `no-cache`, the SPA fallback, unhashed files) is left to ServeStaticModule. Files are
 * read once and kept in memory: the assets are a few megabytes and never change while the process runs.
 */
export class ClientAssets {
  private readonly cache = new Map<string, Asset | null>();

  constructor(private readonly root: string) {}

  readonly use = (req: Request, res: Response, next: NextFunction): void => {
    // originalUrl: Nest mounts middleware on a path, which express strips from req.path.
    const path = req.originalUrl.split('?', 1)[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (isLoginAddress(path)) return this.loginPage(req, res, next);
    if (!path.startsWith(HASHED_ASSETS_PREFIX)) return next();
    const asset = this.load(path);
    // A missing hashed file is a 404, never the SPA's index.html (which a browser would cache as script).
    if (!asset) {
      res.status(404).type('text/plain').end('Not found');
      return;
    }
    this.send(req, res, asset, IMMUTABLE);
  };

  /** /logIn: the page with the card already in it, when the build made one (else the SPA's index.html). */
  private loginPage(req: Request, res: Response, next: NextFunction): void {
    let page = this.cache.get(LOGIN_HTML);
    if (page === undefined) this.cache.set(LOGIN_HTML, (page = this.read(LOGIN_HTML, 'text/html; charset=utf-8')));
    if (!page) return next();
    this.send(req, res, page, 'no-cache');
  }

  private send(req: Request, res: Response, asset: Asset, cacheControl: string): void {
    const coding = negotiate(req.headers['accept-encoding'], asset.variants);
    const variant = asset.variants[coding]!;
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', variant.etag);
    if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
    if (req.headers['if-none-match'] === variant.etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', variant.body.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : variant.body);
  }

  private load(path: string): Asset | null {
    const cached = this.cache.get(path);
    if (cached !== undefined) return cached;
    // Only plain file names directly under /assets/: no traversal, no dot files, no .br/.gz by name.
    const name = path.slice(HASHED_ASSETS_PREFIX.length);
    const type = TYPES[extname(name)];
    const asset =
      /^[\w-]+(\.[\w-]+)*$/.test(name) && !name.startsWith('.') && type ? this.read(join('assets', name), type) : null;
    if (this.cache.size < 10_000) this.cache.set(path, asset);
    return asset;
  }

  /** A file of the build (`relative` to its root) and its compressed copies, or null when it is not there. */
  private read(relative: string, type: string): Asset | null {
    const file = join(this.root, relative);
    if (!existsSync(file)) return null;
    const variant = (p: string): Variant | undefined =>
      existsSync(p)
        ? ((body) => ({ body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }))(
            readFileSync(p),
          )
        : undefined;
    return { type, variants: { identity: variant(file), br: variant(`${file}.br`), gzip: variant(`${file}.gz`) } };
  }
}

/** The JSON (and other text) answers compressed above 1 KiB; never socket.io's, nor an answer already encoded. */
export function compressResponses() {
  return compression({
    threshold: 1024,
    filter: (req, res) =>
      !req.url.startsWith('/socket.io') && !res.getHeader('Content-Encoding') && compression.filter(req, res),
  });
}
