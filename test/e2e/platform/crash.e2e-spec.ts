import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../../utils/servers/built-server.js';
import { crashRounds } from '../../utils/servers/crash-harness.js';

/**
 * An acknowledged write survives kill -9: the built server is killed at a random moment while
 * parallel clients write (beside transactions that fail), restarted on the same file, and every write it
 * answered 201 must be there.
 */
describe('Crash safety of acknowledged writes', () => {
  let dataDir: string;
  let mainJs: string;
  beforeAll(() => {
    mainJs = buildServer();
    dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-crash-'));
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every acknowledged announcement across three kill -9 rounds', async () => {
    const results = await crashRounds({ mainJs, dataDir, rounds: 3 });
    // Not vacuous: the server acknowledged writes in every round before it was killed.
    for (const r of results) expect(r.acknowledged).toBeGreaterThan(0);
    expect(results.flatMap((r) => r.missing)).toEqual([]);
  }, 120_000);
});
