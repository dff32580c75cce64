import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * The backup archive: a gzip-compressed POSIX ustar file (readable with `tar xzf`), written and read here as a
 * stream so a large database never has to fit in memory. Plain files only, flat names.
 */
const BLOCK = 512;

export interface ArchiveEntry {
  name: string;
  /** A file to copy in, or the bytes themselves. */
  path?: string;
  data?: Buffer;
  size: number;
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 99 || !/^[\w.-]+$/.test(name)) throw new Error(`unsupported archive name ${name}`);
  const h = Buffer.alloc(BLOCK);
  const field = (text: string, offset: number, length: number) => h.write(text, offset, length, 'ascii');
  const octal = (n: number, length: number) => n.toString(8).padStart(length - 1, '0');
  field(name, 0, 100);
  field(octal(0o600, 8), 100, 8);
  field(octal(0, 8), 108, 8);
  field(octal(0, 8), 116, 8);
  field(octal(size, 12), 124, 12);
  field(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12);
  field('        ', 148, 8);
  field('0', 156, 1);
  field('ustar\u000000', 257, 8);
  let sum = 0;
  for (const byte of h) sum += byte;
  field(`${octal(sum, 7)}\u0000`, 148, 8);
  return h;
}

/** Writes the entries, in order, into a new .tar.gz at `file`. */
export async function writeArchive(file: string, entries: ArchiveEntry[], mtime = new Date()): Promise<void> {
  async function* blocks() {
    for (const entry of entries) {
      yield header(entry.name, entry.size, mtime);
      if (entry.data) yield entry.data;
      else if (entry.path) for await (const chunk of createReadStream(entry.path)) yield chunk as Buffer;
      const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK;
      if (pad) yield Buffer.alloc(pad);
    }
    yield Buffer.alloc(BLOCK * 2);
  }
  await pipeline(blocks, createGzip(), createWriteStream(file, { mode: 0o600, flags: 'wx' }));
}

interface ExtractedEntry {
  name: string;
  size: number;
  sha256: string;
}

/**
 * Reads a .tar.gz written by writeArchive: each entry goes to `sink(name)` (a writable, or undefined to read it
 * into memory). Returns every entry's size and SHA-256, and the in-memory entries' bytes.
 */
export async function readArchive(
  file: string,
  sink: (name: string) => Writable | undefined,
): Promise<{ entries: ExtractedEntry[]; inMemory: Map<string, Buffer> }> {
  const entries: ExtractedEntry[] = [];
  const inMemory = new Map<string, Buffer>();
  let pending = Buffer.alloc(0);
  let current:
    | {
        name: string;
        size: number;
        left: number;
        pad: number;
        hash: ReturnType<typeof createHash>;
        out?: Writable;
        chunks: Buffer[];
      }
    | undefined;
  let ended = false;

  const finishEntry = async () => {
    const c = current!;
    if (c.out)
      await new Promise<void>((resolve, reject) => c.out!.end((e?: Error | null) => (e ? reject(e) : resolve())));
    else inMemory.set(c.name, Buffer.concat(c.chunks));
    entries.push({ name: c.name, size: c.size, sha256: c.hash.digest('hex') });
  };

  const parse = new Transform({
    transform(chunk: Buffer, _enc, done) {
      (async () => {
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          if (ended) {
            pending = Buffer.alloc(0);
            return;
          }
          if (current && current.left > 0) {
            if (pending.length === 0) return;
            const part = pending.subarray(0, Math.min(current.left, pending.length));
            pending = pending.subarray(part.length);
            current.left -= part.length;
            current.hash.update(part);
            if (current.out) {
              if (!current.out.write(part)) await new Promise((r) => current!.out!.once('drain', r));
            } else current.chunks.push(Buffer.from(part));
            continue;
          }
          if (current && current.left === 0) {
            if (pending.length < current.pad) return;
            pending = pending.subarray(current.pad);
            await finishEntry();
            current = undefined;
          }
          if (pending.length < BLOCK) return;
          const h = pending.subarray(0, BLOCK);
          pending = pending.subarray(BLOCK);
          if (h.every((b) => b === 0)) {
            ended = true;
            continue;
          }
          const text = (offset: number, length: number) =>
            h.toString('ascii', offset, offset + length).replace(/\0.*$/s, '');
          const name = text(0, 100);
          const size = parseInt(text(124, 12).trim(), 8);
          if (!/^[\w.-]+$/.test(name) || !Number.isFinite(size) || text(156, 1) !== '0')
            throw new Error('not a backup archive of this product');
          current = {
            name,
            size,
            left: size,
            pad: (BLOCK - (size % BLOCK)) % BLOCK,
            hash: createHash('sha256'),
            out: sink(name),
            chunks: [],
          };
        }
      })().then(() => done(), done);
    },
  });
  await pipeline(createReadStream(file), createGunzip(), parse, new Writable({ write: (_c, _e, cb) => cb() }));
  if (current) throw new Error('the archive is truncated');
  return { entries, inMemory };
}
