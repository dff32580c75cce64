#!/usr/bin/env node
// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of
// client/dist, at the highest levels (done once at build time, so the server never compresses assets).
// A copy that would not be smaller is not written; the server then sends the original.
const { readdirSync, readFileSync, statSync, writeFileSync, rmSync } = require('node:fs');
const { join, extname } = require('node:path');
const { brotliCompressSync, gzipSync, constants } = require('node:zlib');

const DIST = join(__dirname, '..', 'client', 'dist');
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map', '.ico', '.webmanifest']);
const MIN_BYTES = 512;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let br = 0;
let gz = 0;
for (const path of [...files(DIST)]) {
  if (path.endsWith('.br') || path.endsWith('.gz')) {
    rmSync(path);
    continue;
  }
  if (!COMPRESSIBLE.has(extname(path))) continue;
  const body = readFileSync(path);
  if (body.length < MIN_BYTES) continue;
  const b = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const g = gzipSync(body, { level: 9 });
  if (b.length < body.length) writeFileSync(`${path}.br`, b);
  if (g.length < body.length) writeFileSync(`${path}.gz`, g);
  raw += body.length;
  br += Math.min(b.length, body.length);
  gz += Math.min(g.length, body.length);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`client/dist compressed: ${kb(raw)} -> brotli ${kb(br)}, gzip ${kb(gz)}`);
