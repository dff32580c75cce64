/**
 * Holds the shape docs/architecture.md describes: src/ at most 12 entries, no folder of product code (server or
 * client) with more than 20 (specs and tests aside; migrations are one file per schema change, in order), no two
 * product files of one name (the entries index.ts and light.ts aside), no service, gateway or controller over 400 lines
 * or with more than 7 injected dependencies. And fails when folders of src/ import each other in a loop (a → b → … → a), counting every relative import of
 * product code (specs excluded: a test composes layers). ESLint's import zones (eslint.config.mjs) keep
 * infrastructure and the credentials below the features; this keeps the features themselves in an order a reader
 * can follow. `--graph` prints which folder imports which.
 */
const fs = require('node:fs');
const path = require('node:path');

const SRC = path.join(__dirname, '..', 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

/** The groups of src/ (docs/architecture.md): each folder in one of them is a unit of its own. */
const GROUPS = ['platform', 'identity', 'administration', 'portal'];

/** The folder a file under src/ belongs to: `identity/auth`, `shared`, `app`; '(root)' for src/main.ts. */
const folderOf = (file) => {
  const parts = path.relative(SRC, file).split(path.sep);
  if (GROUPS.includes(parts[0]) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts.length > 1 ? parts[0] : '(root)';
};

function* productFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* productFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) yield full;
  }
}

/** folder → folder → the imports that make the edge. */
function folderGraph() {
  const graph = new Map();
  for (const file of productFiles(SRC)) {
    const from = folderOf(file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), m[1] ?? m[2]);
      if (path.relative(SRC, target).startsWith('..')) continue;
      // A folder's entry ('../users' is users/index.ts) belongs to that folder.
      const to =
        fs.existsSync(target) && fs.statSync(target).isDirectory()
          ? folderOf(path.join(target, 'index.ts'))
          : folderOf(target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`);
    }
  }
  return graph;
}

/** Strongly connected components of more than one folder (Tarjan). */
function loops(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

const ROOT = path.join(__dirname, '..');
const MAX_TOP = 12;
const MAX_ENTRIES = 20;
const TEST_FILE = /\.(spec|test|e2e-spec)\.tsx?$/;
const ENTRY_FILES = new Set(['index.ts', 'index.tsx', 'light.ts']);
const shapeProblems = [];
const namesSeen = new Map();
function checkFolder(dir) {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !TEST_FILE.test(e.name));
  const rel = path.relative(ROOT, dir);
  if (!rel.endsWith(`${path.sep}migrations`) && entries.length > MAX_ENTRIES)
    shapeProblems.push(`${rel} holds ${entries.length} entries (at most ${MAX_ENTRIES}): group them in folders`);
  for (const e of entries) {
    if (e.isDirectory()) checkFolder(path.join(dir, e.name));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') && !ENTRY_FILES.has(e.name)) {
      const file = path.join(rel, e.name);
      if (namesSeen.has(e.name))
        shapeProblems.push(`${file} has the name of ${namesSeen.get(e.name)}: name it for what it holds`);
      else namesSeen.set(e.name, file);
    }
  }
}
const MAX_CLASS_LINES = 400;
const MAX_DEPENDENCIES = 7;
for (const file of productFiles(SRC)) {
  if (!/\.(service|gateway|controller)\.ts$/.test(file)) continue;
  const text = fs.readFileSync(file, 'utf8');
  const rel = path.relative(ROOT, file);
  const lines = text.split('\n').length;
  if (lines > MAX_CLASS_LINES)
    shapeProblems.push(`${rel} has ${lines} lines (at most ${MAX_CLASS_LINES}): split it by what it decides`);
  for (const [, params] of text.matchAll(/constructor\s*\(([\s\S]*?)\)\s*\{/g)) {
    const injected = (params.match(/\b(?:private|protected|public|readonly)\s+(?:readonly\s+)?\w+\s*[:?]/g) ?? [])
      .length;
    if (injected > MAX_DEPENDENCIES)
      shapeProblems.push(
        `${rel} injects ${injected} dependencies (at most ${MAX_DEPENDENCIES}): split it by what it decides`,
      );
  }
}
const top = fs.readdirSync(SRC);
if (top.length > MAX_TOP) shapeProblems.push(`src/ holds ${top.length} entries (at most ${MAX_TOP})`);
checkFolder(SRC);
checkFolder(path.join(ROOT, 'client', 'src'));
for (const problem of shapeProblems) console.error(problem);
if (shapeProblems.length > 0) process.exitCode = 1;

const graph = folderGraph();
if (process.argv.includes('--graph'))
  for (const [from, edges] of [...graph].sort()) console.log(`${from} → ${[...edges.keys()].sort().join(', ')}`);
const found = loops(graph);
for (const loop of found) {
  console.error(`Folders importing each other in a loop: ${loop.join(', ')}`);
  for (const from of loop)
    for (const [to, imports] of graph.get(from) ?? [])
      if (loop.includes(to)) for (const i of imports) console.error(`  ${i}`);
}
if (found.length > 0) process.exitCode = 1;
