import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..');

/** Every product file of the server (specs aside), relative to src/. */
function productFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [relative(SRC, path)] : [];
  });
}

describe('SQL dialects', () => {
  it("are told apart only in src/platform/database and in a feature's store file (<name>.store.ts)", () => {
    const branching = productFiles().filter(
      (file) =>
        !file.startsWith(join('platform', 'database')) &&
        !file.endsWith('.store.ts') &&
        readFileSync(join(SRC, file), 'utf8').includes("'postgres'"),
    );
    expect(branching).toEqual([]);
  });
});
