#!/usr/bin/env node
// `npm run test:image:built`: builds the real Dockerfile with Debian's podman and runs the image. These machines
// have no Docker engine and no Docker Hub: scripts/image/standin-bases.sh provides node:22-bookworm and
// node:22-bookworm-slim stand-ins (kept in podman's storage and a cache archive), and the build never pulls.
// Checks what an operator relies on:
//   - the image builds from the Dockerfile unchanged; its size and build time are reported (README);
//   - no layer stores a second copy of /app;
//   - the first start prints the E-Support password once (a restart on the same volume does not), logs are JSON;
//   - /api/health answers through the published port, the HEALTHCHECK passes;
//   - the process runs as `node`, /app is read-only to it, /data is the volume;
//   - a bind-mounted host folder the node user cannot write: the start fails with a message that says what to do.
// Ends with `N passed, N failed`, like every suite (scripts/test-all.js reads it with --json-report).
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const { checklist } = require('./lib/checklist');

const root = join(__dirname, '..');
const PORT = Number(process.env.IMAGE_TEST_PORT ?? 3710);
const TAG = `localhost/tax-portal:test-${process.pid}`;
const { check, run } = checklist();

/** The flags every podman build/run needs on these machines (scripts/image/engine.sh says why). */
function engineFlags() {
  const out = execFileSync('bash', [
    '-c',
    `. ${join(root, 'scripts/image/engine.sh')} && printf '%s\\n' "\${ENGINE[@]}"`,
  ]);
  return out.toString().trim().split('\n');
}

function podman(args, options = {}) {
  const r = spawnSync('podman', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' };
}

async function waitForHealth(ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

const PASSWORD_BANNER = 'E-Support account created';

async function main() {
  execFileSync('bash', [join(root, 'scripts/image/standin-bases.sh')], { stdio: 'inherit' });
  const engine = engineFlags();

  const started = Date.now();
  const build = podman(['build', ...engine, '--pull=never', '--format', 'docker', '-t', TAG, root], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  check('the Dockerfile builds unchanged with podman on the stand-in bases', build.code === 0, `${seconds} s`);
  if (build.code !== 0) {
    console.log(build.out.slice(-4000));
    return;
  }
  const size = Number(podman(['image', 'inspect', '--format', '{{.Size}}', TAG]).stdout.trim());
  console.log(`    image size ${(size / 1e6).toFixed(0)} MB, built in ${seconds} s`);
  const base = Number(
    podman(['image', 'inspect', '--format', '{{.Size}}', 'docker.io/library/node:22-bookworm-slim']).stdout.trim(),
  );
  // The layers this Dockerfile adds (history lists the newest first; the base's own come last): /app once
  // (node_modules, dist and client each copied once), the /data folder; nothing else of size.
  const history = (image) =>
    podman(['history', '--format', '{{.Size}}\t{{.CreatedBy}}', image])
      .stdout.trim()
      .split('\n')
      .map((l) => l.split('\t'));
  const baseLayers = history('docker.io/library/node:22-bookworm-slim').length;
  const ours = history(TAG).slice(0, -baseLayers);
  const megabytes = ([s]) => (/GB/.test(s) ? parseFloat(s) * 1000 : /MB/.test(s) ? parseFloat(s) : 0);
  const big = ours.filter((l) => megabytes(l) >= 10);
  check(
    'no layer stores a second copy of /app: one layer of 10 MB or more (node_modules) above the base',
    big.length <= 1,
    ours.map((l) => `${l[0]} ${l[1].replace(/\s+/g, ' ').slice(0, 50)}`).join('; '),
  );
  check(
    'the image adds less than 120 MB to the slim base',
    size - base < 120e6,
    `${((size - base) / 1e6).toFixed(0)} MB`,
  );

  const name = `tax-portal-test-${process.pid}`;
  const volume = `${name}-data`;
  const run = (extra = []) =>
    podman(['run', ...engine, '-d', '--name', name, '-p', `127.0.0.1:${PORT}:3000`, ...extra, TAG]);
  const logs = () => podman(['logs', name]).out;
  const remove = () => podman(['rm', '-f', '-t', '0', name]);
  try {
    const first = run(['-v', `${volume}:/data`]);
    check('the container starts with a named volume at /data', first.code === 0, first.out.trim().slice(0, 200));
    const healthy = await waitForHealth(90_000);
    check('/api/health answers through the published port', healthy);
    const text = logs();
    check('the first start prints the E-Support password once', text.split(PASSWORD_BANNER).length === 2);
    const lines = text.split('\n').filter((l) => l.startsWith('{'));
    check(
      'the log is JSON lines',
      lines.length > 3 &&
        lines.every((l) => {
          try {
            return typeof JSON.parse(l) === 'object';
          } catch {
            return false;
          }
        }),
      `${lines.length} lines`,
    );
    check('the process runs as node', podman(['exec', name, 'id', '-un']).stdout.trim() === 'node');
    check(
      '/app is read-only to it',
      podman(['exec', name, 'sh', '-c', 'touch /app/x 2>/dev/null || touch /app/dist/x 2>/dev/null']).code !== 0,
    );
    check(
      '/data is the volume, written by the server (database and keys)',
      /app\.sqlite/.test(podman(['exec', name, 'ls', '/data']).stdout) &&
        podman(['inspect', '--format', '{{range .Mounts}}{{.Destination}} {{end}}', name]).stdout.includes('/data'),
    );
    const health = healthy ? podman(['healthcheck', 'run', name]) : { code: 1, out: 'not started' };
    check("the image's HEALTHCHECK passes", health.code === 0, health.out.trim().slice(0, 200));

    // A restart on the same volume: the data is kept, no second password.
    remove();
    run(['-v', `${volume}:/data`]);
    check('a restart on the same volume serves again', await waitForHealth(90_000));
    check('and prints no new password', !logs().includes(PASSWORD_BANNER));
    remove();

    // A host folder the node user (uid 1000) cannot write, as `-v ./data:/data` made by root gives.
    const host = fs.mkdtempSync(join(os.tmpdir(), 'tax-portal-bind-'));
    fs.chmodSync(host, 0o755);
    run(['-v', `${host}:/data`]);
    const until = Date.now() + 60_000;
    let said = '';
    while (Date.now() < until) {
      said = logs();
      if (/DATA_DIR|\/data/.test(said) && /chown|writable|permission/i.test(said)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const exited = podman(['inspect', '--format', '{{.State.Status}}', name]).stdout.trim();
    check(
      'a host folder it cannot write: it stops and says what to do',
      /chown|writable/i.test(said) && exited !== 'running',
      said
        .split('\n')
        .find((l) => /chown|writable/i.test(l))
        ?.slice(0, 200) ?? said.slice(-300),
    );
    remove();
    fs.rmSync(host, { recursive: true, force: true });
  } finally {
    remove();
    podman(['volume', 'rm', '-f', volume]);
    podman(['rmi', '-f', TAG]);
  }
}

run(main, 'the built-image test ran to the end');
