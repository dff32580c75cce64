#!/usr/bin/env node
/**
 * The JavaScript the /logIn page downloads, as it travels: the built server answers GET /logIn, then every
 * script and module preload the page names is fetched as a browser would (Accept-Encoding: br, gzip);
 * the bytes on the wire are summed against the budget of 100 KB. Also checks the caching headers and that
 * the page carries the card itself (pre-rendered), not an empty root.
 */
const { startServer, fmt, report } = require('./lib');

const BUDGET_KB = 100;

async function main() {
  const server = await startServer();
  try {
    const page = await fetch(`${server.base}/logIn`, { headers: { 'accept-encoding': 'br, gzip' } });
    const html = await page.text();
    if (page.headers.get('cache-control') !== 'no-cache')
      throw new Error(`index.html Cache-Control is ${page.headers.get('cache-control')}`);
    if (!html.includes('data-testid="login-card"')) throw new Error('/logIn is not the pre-rendered card');
    const urls = [...new Set([...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1]))];
    let wire = 0;
    let raw = 0;
    const codings = new Set();
    for (const url of urls) {
      // fetch() decodes the body: read the on-the-wire length from Content-Length of the encoded answer.
      const res = await fetch(`${server.base}${url}`, { headers: { 'accept-encoding': 'br, gzip' } });
      const body = Buffer.from(await res.arrayBuffer());
      const length = Number(res.headers.get('content-length') ?? body.length);
      if (res.headers.get('cache-control') !== 'public, max-age=31536000, immutable')
        throw new Error(`${url}: Cache-Control ${res.headers.get('cache-control')}`);
      codings.add(res.headers.get('content-encoding') ?? 'identity');
      wire += length;
      raw += body.length;
      console.log(
        `  ${url.padEnd(44)} ${fmt(length / 1024).padStart(7)} KB on the wire (${fmt(body.length / 1024)} KB)`,
      );
    }
    report(
      '/logIn JavaScript on the wire',
      `${fmt(wire / 1024)} KB (${[...codings].join(', ')}; ${fmt(raw / 1024)} KB uncompressed) in ${urls.length} files; budget ${BUDGET_KB} KB`,
    );
    if (wire / 1024 > BUDGET_KB) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(`login-bundle bench failed: ${e.stack ?? e}`);
  process.exitCode = 1;
});
