import { PassThrough, Writable } from 'node:stream';
import { csvCell, csvRow, parseCsv, UTF8_BOM, writeCsv } from './csv';

describe('csvCell', () => {
  it('leaves plain text and numbers alone, and writes nothing for null', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://evil","x")'])(
    'defuses the formula %j',
    (text) => {
      const cell = csvCell(text);
      expect(cell.startsWith(`"'`)).toBe(true);
      expect(cell.endsWith('"')).toBe(true);
      expect(cell.slice(2, -1).replace(/""/g, '"')).toBe(text);
    },
  );

  it('does not touch a formula character later in the text', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('user@example.com')).toBe('user@example.com');
  });

  it('writes dates as ISO and objects as JSON', () => {
    expect(csvCell(new Date('2026-01-02T03:04:05.000Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it('ends rows with CRLF', () => {
    expect(csvRow(['a', 1, null])).toBe('a,1,\r\n');
  });
});

describe('writeCsv', () => {
  it('writes the BOM, the header and every batch, then ends', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    async function* batches() {
      yield [['1', 'x']];
      yield [['2', '=y']];
    }
    await writeCsv(out, ['id', 'v'], batches());
    await new Promise((r) => out.on('end', r));
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`${UTF8_BOM}id,v\r\n1,x\r\n2,"'=y"\r\n`);
  });

  it('waits for the reader (backpressure) instead of buffering everything', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    let produced = 0;
    async function* batches() {
      for (let i = 0; i < 100; i++) {
        produced++;
        yield [[`row ${i} ${'x'.repeat(50)}`]];
      }
    }
    const done = writeCsv(out, ['v'], batches());
    await new Promise((r) => setTimeout(r, 20));
    expect(produced).toBeLessThan(5);
    out.resume();
    await done;
    expect(produced).toBe(100);
  });

  it('waits on one drain listener however often it waits, also behind a compressed response', async () => {
    // The compression middleware's response hands every 'drain' listener to its gzip stream and never takes it off.
    const gzip = new PassThrough();
    const out = new Writable({ highWaterMark: 16, write: (_chunk, _encoding, done) => setImmediate(done) });
    const ownOn = out.on.bind(out);
    out.on = ((event: string, listener: (...a: unknown[]) => void) =>
      event === 'drain' ? (gzip.on('drain', listener), out) : ownOn(event, listener)) as typeof out.on;
    const waits = { n: 0 };
    const emit = out.emit.bind(out);
    out.emit = ((event: string, ...args: unknown[]) => {
      if (event === 'drain') {
        waits.n++;
        gzip.emit('drain');
      }
      return emit(event, ...args);
    }) as typeof out.emit;
    async function* batches() {
      for (let i = 0; i < 50; i++) yield [[`row ${i} ${'x'.repeat(50)}`]];
    }
    await writeCsv(out, ['v'], batches());
    expect(waits.n).toBeGreaterThan(10);
    expect(gzip.listenerCount('drain')).toBe(1);
    expect(out.listenerCount('close')).toBe(1);
  });
});

describe('parseCsv', () => {
  it('reads quoted cells, doubled quotes, line breaks inside quotes, CRLF and LF, a BOM, and skips blank lines', () => {
    expect(parseCsv('\uFEFFemail,role\r\n"a@b.test","Site ""A"" Admin"\n\nc@d.test,"two\nlines"\r\n')).toEqual([
      ['email', 'role'],
      ['a@b.test', 'Site "A" Admin'],
      ['c@d.test', 'two\nlines'],
    ]);
  });

  it('stops with null past the bound', () => {
    expect(parseCsv('h\n1\n2\n3', 3)).toBeNull();
    expect(parseCsv('h\n1\n2', 3)).toHaveLength(3);
  });
});
