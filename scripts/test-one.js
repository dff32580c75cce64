#!/usr/bin/env node
// `npm run test:one -- <file> [runner options]`: runs one test file of any tier, chosen by its name:
//   src/**/*.spec.ts           server unit (jest)
//   test/e2e/*.e2e-spec.ts     server e2e (jest, Nest testing module)
//   client/src/**/*.test.tsx   client (vitest, jsdom)
//   test/browser/*.browser.ts  browser (Playwright with Debian's chromium; builds the app first if missing)
// Options after the file go to the runner, e.g. `-t "name of a test"` for jest and vitest, `-g` for Playwright.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const root = join(__dirname, '..');
const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: npm run test:one -- <test file> [runner options]');
  process.exit(2);
}
const path = relative(root, resolve(process.cwd(), file));
if (!existsSync(join(root, path))) {
  console.error(`no such file: ${path}`);
  process.exit(2);
}

const tiers = [
  { match: /\.e2e-spec\.ts$/, cmd: ['jest', '--config', 'test/jest-e2e.config.js', path] },
  { match: /\.spec\.ts$/, cmd: ['jest', '--config', 'jest.config.js', path] },
  { match: /\.test\.tsx?$/, cmd: ['vitest', 'run', '--config', 'client/vite.config.mts', relative('client', path)] },
  {
    match: /\.browser\.ts$/,
    cmd: ['playwright', 'test', '--config', 'test/browser/playwright.config.ts', relative('test/browser', path)],
    build: true,
  },
];
const tier = tiers.find((t) => t.match.test(path));
if (!tier) {
  console.error(`${path}: not a test file (*.spec.ts, *.e2e-spec.ts, *.test.ts(x) or *.browser.ts)`);
  process.exit(2);
}
if (tier.build && (!existsSync(join(root, 'dist/main.js')) || !existsSync(join(root, 'client/dist/index.html')))) {
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const [bin, ...args] = tier.cmd;
const r = spawnSync(join(root, 'node_modules', '.bin', bin), [...args, ...rest], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
