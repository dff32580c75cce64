import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JS shared with bench/reliability.js
const { crashRounds } = require('../utils/crash-harness.js') as {
  crashRounds: (o: { mainJs: string; dataDir: string; rounds: number }) => Promise<Array<{ round: number; acknowledged: number; missing: string[] }>>;
};

const root = join(__dirname, '..', '..');
/** The server is compiled once into its own folder, so this suite never disturbs dist/ (served by npm start). */
const buildDir = join(root, '.crash-build');

/**
 * An acknowledged write survives kill -9 (issue 9): the built server is killed at a random moment while
 * parallel clients write (beside transactions that fail), restarted on the same file, and every write it
 * answered 201 must be there.
 */
describe('Crash safety of acknowledged writes', () => {
  let dataDir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', buildDir], { cwd: root, stdio: 'inherit' });
    dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-crash-'));
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every acknowledged announcement across three kill -9 rounds', async () => {
    const results = await crashRounds({ mainJs: join(buildDir, 'main.js'), dataDir, rounds: 3 });
    // Not vacuous: the server acknowledged writes in every round before it was killed.
    for (const r of results) expect(r.acknowledged).toBeGreaterThan(0);
    expect(results.flatMap((r) => r.missing)).toEqual([]);
  }, 120_000);
});
