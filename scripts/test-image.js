#!/usr/bin/env node
// `npm run test:image`: tests what the container image runs, without a container engine. It lays out the
// Dockerfile's runtime stage in a temporary folder (production dependencies: the installed tree pruned by `npm
// prune --omit=dev --omit=optional` and stripped by scripts/prune-runtime.sh; the built dist/ and client/dist/), starts
// `node dist/main.js` there as the image's CMD does, and checks:
//   - no build-only package or file is present (compilers, type declarations, source maps, ts-node, @swc);
//   - every package the compiled server requires is declared in package.json's dependencies;
//   - the first start prints the bootstrap password exactly once, logs are JSON lines, health and readiness
//     answer, a sign-in works (sqlite3 and argon2 load), metrics answer on loopback;
//   - the size of the runtime files (the README's image-size estimate).
// Ends with `N passed, N failed`, like every suite (scripts/test-all.js reads it with --json-report).
const { execFileSync, spawn } = require('node:child_process');
const { builtinModules } = require('node:module');
const fs = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const { checklist } = require('./lib/checklist');

const root = join(__dirname, '..');
const pkg = require(join(root, 'package.json'));
const PORT = Number(process.env.IMAGE_TEST_PORT ?? 3700);
const { check, run } = checklist();

function du(path) {
  return Number(execFileSync('du', ['-sb', path]).toString().split('\t')[0]);
}
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function walk(dir, visit) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, visit);
    else visit(p);
  }
}

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

async function main() {
  if (!fs.existsSync(join(root, 'dist/main.js')) || !fs.existsSync(join(root, 'client/dist/index.html'))) {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const app = fs.mkdtempSync(join(os.tmpdir(), 'tax-portal-image-'));
  const data = join(app, 'data');
  console.log(`runtime stage in ${app}`);
  try {
    fs.copyFileSync(join(root, 'package.json'), join(app, 'package.json'));
    fs.copyFileSync(join(root, 'package-lock.json'), join(app, 'package-lock.json'));
    const started = Date.now();
    // As the Dockerfile does: the installed tree without its development and optional packages. Hard links where
    // the temporary folder is on the same file system: the pruning below only removes files, except npm's record of
    // the tree, which it rewrites and so gets a copy of its own.
    try {
      execFileSync('cp', ['-al', join(root, 'node_modules'), join(app, 'node_modules')], { stdio: 'ignore' });
    } catch {
      fs.rmSync(join(app, 'node_modules'), { recursive: true, force: true });
      execFileSync('cp', ['-a', join(root, 'node_modules'), join(app, 'node_modules')]);
    }
    const record = join('node_modules', '.package-lock.json');
    fs.rmSync(join(app, record), { force: true });
    if (fs.existsSync(join(root, record))) fs.copyFileSync(join(root, record), join(app, record));
    execFileSync('npm', ['prune', '--omit=dev', '--omit=optional', '--no-audit', '--no-fund'], {
      cwd: app,
      stdio: 'inherit',
    });
    console.log(`npm prune --omit=dev --omit=optional: ${Math.round((Date.now() - started) / 1000)} s`);
    fs.cpSync(join(root, 'dist'), join(app, 'dist'), { recursive: true });
    fs.cpSync(join(root, 'client/dist'), join(app, 'client/dist'), { recursive: true });
    const before = du(join(app, 'node_modules'));
    execFileSync('sh', [join(root, 'scripts/prune-runtime.sh'), app], { stdio: 'inherit' });
    fs.rmSync(join(app, 'package-lock.json'), { force: true });

    console.log('\nWhat the image holds');
    const nm = join(app, 'node_modules');
    const forbidden = [
      'typescript',
      'ts-node',
      '@swc',
      '@types',
      'node-gyp',
      'jest',
      'vite',
      '@nestjs/testing',
      'react',
    ];
    check(
      'no build-only package',
      forbidden.every((p) => !fs.existsSync(join(nm, p))),
      forbidden.filter((p) => fs.existsSync(join(nm, p))).join(', '),
    );
    let maps = 0;
    let decls = 0;
    const objects = [];
    for (const d of [nm, join(app, 'dist'), join(app, 'client/dist')]) {
      walk(d, (f) => {
        if (f.endsWith('.map')) maps++;
        if (/\.d\.[cm]?ts$/.test(f)) decls++;
        if (/\.(o|a|c|cc|cpp|h|gyp)$/.test(f) && !f.includes('node-addon-api')) objects.push(f.slice(app.length + 1));
      });
    }
    check('no source maps', maps === 0, `${maps}`);
    check('no type declarations', decls === 0, `${decls}`);
    check('no compiler inputs or objects of the native modules', objects.length === 0, objects.slice(0, 5).join(', '));

    const required = new Set();
    walk(join(app, 'dist'), (f) => {
      if (!f.endsWith('.js')) return;
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/require\("([^"./][^"]*)"\)/g)) {
        const name = m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0];
        if (!name.startsWith('node:') && !builtinModules.includes(name)) required.add(name);
      }
    });
    const undeclared = [...required].filter((n) => !pkg.dependencies[n]);
    check(
      'every package the server requires is a declared dependency',
      undeclared.length === 0,
      undeclared.join(', ') || `${required.size} packages`,
    );

    const sizes = { node_modules: du(nm), dist: du(join(app, 'dist')), client: du(join(app, 'client/dist')) };
    const packages = fs
      .readdirSync(nm)
      .flatMap((d) => (d.startsWith('@') ? fs.readdirSync(join(nm, d)).map((s) => `${d}/${s}`) : [d]))
      .filter((d) => !d.startsWith('.'))
      .map((d) => [d, du(join(nm, d))])
      .sort((a, b) => b[1] - a[1]);
    console.log(
      `  largest packages: ${packages
        .slice(0, 8)
        .map(([d, b]) => `${d} ${mb(b)}`)
        .join(', ')}`,
    );
    console.log(
      `  runtime files: node_modules ${mb(sizes.node_modules)} (${mb(before)} before pruning), dist ${mb(sizes.dist)}, client/dist ${mb(sizes.client)}`,
    );

    console.log('\nThe first start');
    // As in the image: files owned by another user would be read-only to the node user; here the process must
    // at least never need to write outside DATA_DIR.
    execFileSync('chmod', ['-R', 'a-w', join(app, 'dist'), join(app, 'client'), nm]);
    const out = [];
    const server = spawn(process.execPath, ['dist/main.js'], {
      cwd: app,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: String(PORT), DATA_DIR: data, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout.on('data', (b) => out.push(b.toString()));
    server.stderr.on('data', (b) => out.push(b.toString()));
    try {
      const base = `http://127.0.0.1:${PORT}`;
      check('GET /api/health answers within 60 s', await waitFor(`${base}/api/health`, 60_000));
      const live = await fetch(`${base}/api/health/live`);
      check('GET /api/health/live: 200', live.status === 200);
      const ready = await fetch(`${base}/api/health/ready`);
      check('GET /api/health/ready: 200', ready.status === 200, JSON.stringify((await ready.json()).checks));
      const page = await fetch(`${base}/`);
      check('the client is served', page.status === 200 && (await page.text()).includes('<div id="root">'));
      const text = () => out.join('');
      const passwordLines = text()
        .split('\n')
        .filter((l) => l.startsWith('Temporary password'));
      check('the bootstrap password is printed exactly once', passwordLines.length === 1);
      const password = passwordLines[0]?.split(': ').pop();
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'image-test-1' },
        body: JSON.stringify({ username: 'admin@support.localhost', password, acceptToS: true }),
      });
      check(
        'sign-in with it asks for a new password (sqlite3 and argon2 work)',
        (await login.json()).code === 'PASSWORD_CHANGE_REQUIRED',
      );
      const metrics = await fetch(`${base}/api/metrics`);
      check(
        'GET /api/metrics answers on loopback',
        metrics.status === 200 &&
          (await metrics.text()).includes('auth_logins_total{outcome="password_change_required"} 1'),
      );
      await new Promise((r) => setTimeout(r, 300));
      const lines = text()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      const json = lines.filter((l) => {
        try {
          JSON.parse(l);
          return true;
        } catch {
          return false;
        }
      });
      check('log lines are JSON', lines.length > 5 && json.length === lines.length, `${json.length}/${lines.length}`);
      check('no escape codes in the log', !text().includes('\u001b['));
      const loginLine = json.map((l) => JSON.parse(l)).find((l) => l.req?.id === 'image-test-1');
      check(
        'the sign-in request is logged once with its request id and status',
        loginLine?.res?.status === 401 && loginLine.req.path === '/auth/login',
      );
      check('the password never reaches the log', !!password && text().split(password).length === 2);
      check(
        'nothing was written outside DATA_DIR',
        fs.readdirSync(app).sort().join(',') === 'client,data,dist,node_modules,package.json',
      );
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  } finally {
    execFileSync('chmod', ['-R', 'u+w', app]);
    fs.rmSync(app, { recursive: true, force: true });
  }
}

run(main, 'the image test ran to the end');
