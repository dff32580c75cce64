import { Writable } from 'node:stream';
import { pacedWriter } from './http/paced-writer';

/** Written first, so spreadsheet tools read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

/** Characters that make a spreadsheet read a cell as a formula (OWASP 'CSV injection'). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): null and undefined are empty; a cell a spreadsheet would take for a formula is
 * prefixed with ' and quoted; a cell with a comma, quote or line break is quoted, its quotes doubled.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const formula = FORMULA_START.test(text);
  if (formula) text = `'${text}`;
  return formula || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * Writes a CSV to `out` from batches read one after another (keyset pages from the database), waiting
 * for the socket to drain whenever its buffer is full, so however many rows there are only one batch is
 * in memory. Stops early, without error, when the client goes away.
 */
export async function writeCsv(
  out: Writable,
  header: readonly string[],
  batches: AsyncIterable<unknown[][]>,
): Promise<void> {
  const { write } = pacedWriter(out);
  if (!(await write(UTF8_BOM + csvRow(header)))) return;
  for await (const rows of batches) {
    if (!(await write(rows.map(csvRow).join('')))) return;
  }
  out.end();
}

/**
 * Reads CSV text (RFC 4180: quoted cells with doubled quotes and line breaks inside, CRLF or LF rows, a leading
 * UTF-8 BOM) into rows of cells. Blank lines are left out. Stops with null once more than `maxRows` rows are read,
 * so a huge upload costs no more than the bound.
 */
export function parseCsv(text: string, maxRows = Infinity): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.startsWith(UTF8_BOM) ? 1 : 0;
  const endRow = () => {
    row.push(cell);
    cell = '';
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      if (rows.length > maxRows) return null;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) endRow();
  return rows.length > maxRows ? null : rows;
}
