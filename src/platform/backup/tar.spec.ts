import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readArchive, writeArchive } from './tar';

describe('backup archive (tar.gz)', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'tar-spec-'));

  it('round-trips files streamed in and out, of any size, and `tar` reads it', async () => {
    const d = dir();
    const big = randomBytes(3 * 1024 * 1024 + 17);
    writeFileSync(join(d, 'big.bin'), big);
    const file = join(d, 'a.tar.gz');
    const manifest = Buffer.from('{"a":1}');
    await writeArchive(file, [
      { name: 'manifest.json', data: manifest, size: manifest.length },
      { name: 'empty', data: Buffer.alloc(0), size: 0 },
      { name: 'big.bin', path: join(d, 'big.bin'), size: big.length },
    ]);
    const out = mkdtempSync(join(tmpdir(), 'tar-out-'));
    const { entries, inMemory } = await readArchive(file, (name) =>
      name === 'big.bin' ? createWriteStream(join(out, name)) : undefined,
    );
    expect(entries.map((e) => [e.name, e.size])).toEqual([
      ['manifest.json', 7],
      ['empty', 0],
      ['big.bin', big.length],
    ]);
    expect(inMemory.get('manifest.json')).toEqual(manifest);
    expect(readFileSync(join(out, 'big.bin')).equals(big)).toBe(true);
    expect(execFileSync('tar', ['tzf', file]).toString().trim().split('\n')).toEqual([
      'manifest.json',
      'empty',
      'big.bin',
    ]);
  }, 30_000);

  it('refuses a truncated archive and one that is not a tar', async () => {
    const d = dir();
    const file = join(d, 'a.tar.gz');
    const data = randomBytes(5000);
    await writeArchive(file, [{ name: 'x', data, size: data.length }]);
    const tar = gunzipSync(readFileSync(file));
    writeFileSync(join(d, 'cut.tar.gz'), gzipSync(tar.subarray(0, 3000)));
    await expect(readArchive(join(d, 'cut.tar.gz'), () => undefined)).rejects.toThrow(/truncated/);
    writeFileSync(join(d, 'junk.tar.gz'), gzipSync(randomBytes(2048)));
    await expect(readArchive(join(d, 'junk.tar.gz'), () => undefined)).rejects.toThrow(/not a backup archive/);
  });

  it('refuses names that could leave the folder', async () => {
    const file = join(dir(), 'a.tar.gz');
    await expect(writeArchive(file, [{ name: '../x', data: Buffer.alloc(1), size: 1 }])).rejects.toThrow(/name/);
  });
});
