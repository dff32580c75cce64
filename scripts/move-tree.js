#!/usr/bin/env node
// Moves folders and files of the repository with `git mv` and rewrites every reference to them: relative imports and
// requires (resolved against the old tree), the client's `@/` and `@shared/` aliases, and `src/…`, `dist/…` and
// `client/src/…` paths written in code, docs and configuration.
//
//   node scripts/move-tree.js <map.json> [--dry-run]
//
// map.json: [["src/common", "src/platform/web"], ["src/app.module.ts", "src/app/app.module.ts"], …], paths from the
// repository's root. A folder's mapping covers everything under it.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const [mapFile, ...flags] = process.argv.slice(2);
if (!mapFile) {
  console.error('usage: node scripts/move-tree.js <map.json> [--dry-run]');
  process.exit(2);
}
const dryRun = flags.includes('--dry-run');
const moves = JSON.parse(fs.readFileSync(mapFile, 'utf8')).map(([from, to]) => [
  path.normalize(from),
  path.normalize(to),
]);

/** The new place of a path of the old tree (relative to the root). */
function mapRel(rel) {
  for (const [from, to] of moves) {
    if (rel === from) return to;
    if (rel.startsWith(from + '/')) return to + rel.slice(from.length);
    // an extensionless import of a moved file
    const fromBare = from.replace(/\.(tsx?|jsx?|mjs|cjs)$/, '');
    if (fromBare !== from && rel === fromBare) return to.replace(/\.(tsx?|jsx?|mjs|cjs)$/, '');
  }
  return rel;
}

const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const exists = new Set(files);
const dirs = new Set();
for (const f of files) for (let d = path.dirname(f); d !== '.'; d = path.dirname(d)) dirs.add(d);

const CODE = /\.(tsx?|jsx?|mjs|cjs)$/;
const TEXT = /\.(tsx?|jsx?|mjs|cjs|json|md|ya?ml|sh|html|css)$|(^|\/)(Dockerfile|\.ci\/run|Containerfile)$/;
const RESOLVE_EXT = [
  '',
  '.ts',
  '.tsx',
  '.d.ts',
  '.js',
  '.mjs',
  '.cjs',
  '.json',
  '/index.ts',
  '/index.tsx',
  '/index.js',
];

function resolvable(rel) {
  return RESOLVE_EXT.some((ext) => exists.has(rel + ext)) || dirs.has(rel);
}

function clientAlias(file) {
  // The client's tsconfig: `@/` is client/src, `@shared/` is src/shared.
  return file.startsWith('client/') || file.startsWith('test/browser') ? true : false;
}

function rewriteSpecifier(file, spec) {
  const newFile = mapRel(file);
  let oldTarget;
  let kind;
  if (spec.startsWith('./') || spec.startsWith('../')) {
    oldTarget = path.normalize(path.join(path.dirname(file), spec));
    kind = 'relative';
  } else if (spec.startsWith('@/') && clientAlias(file)) {
    oldTarget = path.join('client/src', spec.slice(2));
    kind = '@/';
  } else if (spec.startsWith('@shared/') && clientAlias(file)) {
    oldTarget = path.join('src/shared', spec.slice('@shared/'.length));
    kind = '@shared/';
  } else return spec;
  if (!resolvable(oldTarget)) return spec;
  const trailing = spec.endsWith('/') ? '/' : '';
  const newTarget = mapRel(oldTarget);
  if (kind === '@/') {
    if (!newTarget.startsWith('client/src/')) throw new Error(`${file}: ${spec} leaves client/src`);
    return '@/' + newTarget.slice('client/src/'.length) + trailing;
  }
  if (kind === '@shared/') {
    if (!newTarget.startsWith('src/shared/')) throw new Error(`${file}: ${spec} leaves src/shared`);
    return '@shared/' + newTarget.slice('src/shared/'.length) + trailing;
  }
  if (newTarget === oldTarget && newFile === file) return spec;
  let rel = path.relative(path.dirname(newFile), newTarget);
  if (!rel.startsWith('.')) rel = './' + rel;
  return rel + trailing;
}

// Written path mentions: `src/common/…`, `dist/common/…`, `client/src/features/identity/federation/…`.
const pathMentions = [];
for (const [from, to] of moves) {
  const variants = [[from, to]];
  if (from.startsWith('src/') && !/\.(tsx?)$/.test(from))
    variants.push(['dist/' + from.slice(4), 'dist/' + to.slice(4)]);
  if (/\.ts$/.test(from) && from.startsWith('src/'))
    variants.push(['dist/' + from.slice(4).replace(/\.ts$/, '.js'), 'dist/' + to.slice(4).replace(/\.ts$/, '.js')]);
  for (const [a, b] of variants) {
    const escaped = a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // not a part of a longer path (`client/src/…` for `src/…`), and not a longer name (`src/commons`)
    const lead = a.startsWith('src/') ? '(?<![\\w.@/-])' : '(?<![\\w.@-])';
    pathMentions.push([new RegExp(lead + escaped + '(?![\\w-])', 'g'), b]);
  }
}

const changed = new Map();
for (const file of files) {
  if (!TEXT.test(file) || file.startsWith('node_modules/')) continue;
  if (file === 'package-lock.json' || (file.endsWith('.json') && file.includes('shared-schemas'))) continue;
  const full = path.join(root, file);
  if (!fs.existsSync(full)) continue;
  const before = fs.readFileSync(full, 'utf8');
  let text = before;
  if (CODE.test(file)) {
    text = text.replace(
      /(\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bjest\.(?:mock|requireActual|doMock|unmock)\s*\(\s*|\bimport\s+|\bmodule\s*:\s*|\bvi\.mock\s*\(\s*)(['"])([^'"\n]+)\2/g,
      (m, lead, q, spec) => lead + q + rewriteSpecifier(file, spec) + q,
    );
  }
  for (const [re, to] of pathMentions) text = text.replace(re, to);
  if (text !== before) changed.set(file, text);
}

const touched = [...changed.keys()];
console.log(`${moves.length} moves, ${touched.length} files rewritten`);
if (dryRun) {
  for (const f of touched) console.log('  ' + f + (mapRel(f) !== f ? ' -> ' + mapRel(f) : ''));
  process.exit(0);
}
for (const [from, to] of moves) {
  fs.mkdirSync(path.join(root, path.dirname(to)), { recursive: true });
  execFileSync('git', ['mv', from, to], { cwd: root, stdio: 'inherit' });
}
for (const [file, text] of changed) fs.writeFileSync(path.join(root, mapRel(file)), text);
