import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProcessLike {
  execPath: string;
  execArgv: string[];
  argv: string[];
  allowedNodeEnvironmentFlags: ReadonlySet<string>;
  execve?: unknown;
}

/**
 * The server's node starts with the same options however it is started: `npm start`, the image, and the benchmarks
 * that measure it (scripts/lib/server-node-options.js, docs/decisions/perf-sockets.md, docs/decisions/async-context.md).
 */
describe("the server's node options", () => {
  const root = join(__dirname, '..', '..');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { serverNodeArgs, restartArgs } = require(join(root, 'scripts', 'lib', 'server-node-options.js')) as {
    serverNodeArgs(allowed: ReadonlySet<string>): string[];
    restartArgs(main: string, proc: ProcessLike): string[] | undefined;
  };
  const CONTEXT_FRAME = '--experimental-async-context-frame';
  // What every runtime gets: the options of a node that takes none beyond them.
  const SERVER_NODE_ARGS = serverNodeArgs(new Set());
  const node22 = new Set(['--min-semi-space-size', CONTEXT_FRAME]);
  const node20 = new Set(['--min-semi-space-size']);

  it('start with a full-size young generation', () => {
    expect(SERVER_NODE_ARGS).toContain('--min-semi-space-size=16');
  });

  it('carry AsyncLocalStorage on AsyncContextFrame where the runtime takes the option, and only there', () => {
    expect(serverNodeArgs(node22)).toEqual([...SERVER_NODE_ARGS, CONTEXT_FRAME]);
    expect(serverNodeArgs(node20)).toEqual(SERVER_NODE_ARGS);
  });

  it('are the ones `npm start` gives, the rest added by start.js on the runtimes that take them', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(['node', ...SERVER_NODE_ARGS, 'scripts/start.js'].join(' '));
    const started = {
      execPath: '/usr/bin/node',
      execArgv: [...SERVER_NODE_ARGS],
      argv: ['/usr/bin/node', '/app/scripts/start.js', 'backup', '/tmp/b.tar'],
      execve: () => undefined,
    };
    // Node 22: the same process becomes the server with the option added, and the command passed on.
    expect(restartArgs('/app/dist/main.js', { ...started, allowedNodeEnvironmentFlags: node22 })).toEqual([
      '/usr/bin/node',
      ...SERVER_NODE_ARGS,
      CONTEXT_FRAME,
      '/app/dist/main.js',
      'backup',
      '/tmp/b.tar',
    ]);
    // Already given, not taken by this node, or no execve (Node 20): the server loads in this process.
    const given = { ...started, execArgv: [...SERVER_NODE_ARGS, CONTEXT_FRAME], allowedNodeEnvironmentFlags: node22 };
    expect(restartArgs('/app/dist/main.js', given)).toBeUndefined();
    expect(restartArgs('/app/dist/main.js', { ...started, allowedNodeEnvironmentFlags: node20 })).toBeUndefined();
    const noExecve = { ...started, execve: undefined, allowedNodeEnvironmentFlags: node22 };
    expect(restartArgs('/app/dist/main.js', noExecve)).toBeUndefined();
    // A young generation of the operator's own size is kept, not given twice.
    const ownSize = { ...started, execArgv: ['--min-semi-space-size=32'], allowedNodeEnvironmentFlags: node22 };
    expect(restartArgs('/app/dist/main.js', ownSize)).toEqual([
      '/usr/bin/node',
      '--min-semi-space-size=32',
      CONTEXT_FRAME,
      '/app/dist/main.js',
      'backup',
      '/tmp/b.tar',
    ]);
  });

  it("are the ones the image's CMD gives on its Node 22", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(['node', ...serverNodeArgs(node22), 'dist/main.js']);
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toMatch(/^FROM node:22-bookworm-slim$/m);
  });
});
