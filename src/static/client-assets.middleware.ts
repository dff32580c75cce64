import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Vite puts every content-hashed file under /assets/; its name changes whenever its bytes do. */
export const HASHED_ASSETS_PREFIX = '/assets/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

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
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !path.startsWith(HASHED_ASSETS_PREFIX)) return next();
    const asset = this.load(path);
    // A missing hashed file is a 404, never the SPA's index.html (which a browser would cache as script).
    if (!asset) {
      res.status(404).type('text/plain').end('Not found');
      return;
    }
    const coding = negotiate(req.headers['accept-encoding'], asset.variants);
    const variant = asset.variants[coding]!;
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', variant.etag);
    if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
    if (req.headers['if-none-match'] === variant.etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', variant.body.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : variant.body);
  };

  private load(path: string): Asset | null {
    const cached = this.cache.get(path);
    if (cached !== undefined) return cached;
    // Only plain file names directly under /assets/: no traversal, no dot files, no .br/.gz by name.
    const name = path.slice(HASHED_ASSETS_PREFIX.length);
    const type = TYPES[extname(name)];
    let asset: Asset | null = null;
    if (/^[\w-]+(\.[\w-]+)*$/.test(name) && !name.startsWith('.') && type) {
      const file = join(this.root, 'assets', name);
      if (existsSync(file)) {
        const read = (p: string): Variant | undefined =>
          existsSync(p)
            ? ((body) => ({ body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }))(
                readFileSync(p),
              )
            : undefined;
        asset = { type, variants: { identity: read(file), br: read(`${file}.br`), gzip: read(`${file}.gz`) } };
      }
    }
    if (this.cache.size < 10_000) this.cache.set(path, asset);
    return asset;
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
