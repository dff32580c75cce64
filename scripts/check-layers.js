/**
 * Fails when folders of src/ import each other in a loop (a → b → … → a), counting every relative import of
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
