import { Writable } from 'node:stream';

export interface PacedWriter {
  /** Writes a chunk, waiting while the stream's buffer is full; false once the stream is gone (the client left). */
  write: (chunk: string) => Promise<boolean>;
}

/**
 * Writes a long answer (an export) to a stream that may be slower than the database it is read from: whenever the
 * buffer is full, the next write waits until the stream drains or closes, so only one batch is in memory.
 *
 * One 'drain' and one 'close' listener serve every wait of the stream's life. A response compressed by the
 * `compression` middleware hands each 'drain' listener to its gzip stream and never takes it off again, so a
 * listener added and removed per wait would pile up there (Node warns past ten).
 */
export function pacedWriter(out: Writable): PacedWriter {
  let waiting: (() => void) | null = null;
  const wake = () => {
    const resume = waiting;
    waiting = null;
    resume?.();
  };
  out.on('drain', wake);
  out.on('close', wake);
  return {
    write: async (chunk: string): Promise<boolean> => {
      if (out.destroyed) return false;
      if (!out.write(chunk) && !out.destroyed) await new Promise<void>((resolve) => (waiting = resolve));
      return !out.destroyed;
    },
  };
}
