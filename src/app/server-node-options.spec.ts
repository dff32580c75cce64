import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The server's node starts with the same options however it is started: `npm start`, the image, and the benchmarks
 * that measure it (bench/lib.js, docs/decisions/perf-sockets.md).
 */
describe("the server's node options", () => {
  const root = join(__dirname, '..', '..');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SERVER_NODE_ARGS } = require(join(root, 'bench', 'lib.js')) as { SERVER_NODE_ARGS: string[] };

  it('start with a full-size young generation', () => {
    expect(SERVER_NODE_ARGS).toContain('--min-semi-space-size=16');
  });

  it('are the ones `npm start` gives', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(['node', ...SERVER_NODE_ARGS, 'scripts/start.js'].join(' '));
  });

  it("are the ones the image's CMD gives", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(['node', ...SERVER_NODE_ARGS, 'dist/main.js']);
  });
});
