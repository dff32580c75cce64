#!/usr/bin/env node
/**
 * After `vite build`: client/dist/login.html, the page the server sends for /logIn. It is index.html with
 * the login card's first step rendered into #root (client/src/app/prerender-login.tsx, built for Node by
 * Vite with the client's own configuration) and the card's stylesheet inlined, so a phone paints the card
 * from the HTML alone; the script then hydrates it. The other pages keep index.html's empty root.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const client = fileURLToPath(new URL('../client/', import.meta.url));
const dist = join(client, 'dist');
// Inside the project, so the built module finds react and react-dom in node_modules.
const out = fileURLToPath(new URL('../node_modules/.cache/prerender-login/', import.meta.url));
try {
  await build({
    configFile: join(client, 'vite.config.mts'),
    logLevel: 'warn',
    build: {
      ssr: join(client, 'src/app/prerender-login.tsx'),
      outDir: out,
      emptyOutDir: true,
      manifest: false,
      rolldownOptions: { output: { entryFileNames: 'prerender-login.mjs' } },
    },
  });
  const { renderLogin } = await import(pathToFileURL(join(out, 'prerender-login.mjs')).href);
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error(`index.html has no ${root}`);
  // The entry's stylesheet (the card's, the only one the entry carries) inline: no request before the first paint.
  const link = /<link rel="stylesheet"[^>]*href="(\/assets\/index-[\w-]+\.css)"[^>]*>/.exec(html);
  let page = html.replace(root, `<div id="root">${renderLogin()}</div>`);
  if (link) page = page.replace(link[0], `<style>${readFileSync(join(dist, link[1]), 'utf8').trim()}</style>`);
  // The entry script after the card, async: the page paints from the HTML alone and the script hydrates it when
  // it arrives.
  const entry = /\s*<script type="module"([^>]*)><\/script>/.exec(page);
  if (!entry) throw new Error('index.html has no module script');
  // One script hydrates the card: a static import of another chunk would be fetched only once the entry has
  // arrived, a round trip later on a phone (client/vite.config.mts keeps the entry's modules in its chunk).
  const src = /\ssrc="\/(assets\/[\w.-]+\.js)"/.exec(entry[1]);
  if (!src) throw new Error(`the entry script has no src: ${entry[0].trim()}`);
  const imports = [
    ...readFileSync(join(dist, src[1]), 'utf8').matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[\w.-]+\.js)["']/g),
  ];
  if (imports.length) {
    throw new Error(`the entry ${src[1]} imports ${imports.map((m) => m[1]).join(', ')}: keep them in its chunk`);
  }
  page = page.replace(entry[0], '');
  page = page.replace('</body>', `  <script type="module" async${entry[1]}></script>\n  </body>`);
  writeFileSync(join(dist, 'login.html'), page);
  console.log(`client/dist/login.html: the login card pre-rendered (${(page.length / 1024).toFixed(1)} KB)`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
